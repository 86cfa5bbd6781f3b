module github.com/chipchat/chipchat

go 1.26
