package tty

import "golang.org/x/sys/unix"

// getTermios is the ioctl that reads a tty's termios.
const getTermios = unix.TCGETS
