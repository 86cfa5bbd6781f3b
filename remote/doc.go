package remote
