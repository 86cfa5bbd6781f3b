// Package remote is a project on another machine, reached through the
// system's OpenSSH (`ssh` from PATH), so the user's ~/.ssh/config, agent,
// keys, ProxyJump and known_hosts apply. It owns:
//
//   - targets: Parse reads `[user@]host[:port]:/path`,
//     `ssh://user@host:port/path` or the name of a `[remotes.NAME]` entry
//     of the config (Entry, a type the config holds: target and agent);
//     Target.Key is the project's key in the local store, ssh://host/path
//     (with :port when not 22; without the user: the path names the
//     directory).
//   - the master connection: one chipchat-owned OpenSSH master per target
//     (ControlMaster=auto, a ControlPath of its own under the runtime
//     directory, chipchat-ssh/%C, ControlPersist, ServerAliveInterval), so
//     a master the user opened is never used (its forwardings would be
//     ignored). Every command runs with BatchMode=yes over it; when the
//     first connection needs a password, a passphrase or a host key
//     answer, Interactive is the ssh command the caller runs in a terminal
//     (a pane tab) to open the master. Every ssh failure is an *Error, one
//     line naming the kind (host unknown, unreachable, authentication
//     refused, host key changed or not known, timed out) with ssh's own
//     last line; nothing waits past a timeout (Options.Timeout, 15 s).
//   - remote commands: Run and RunCommand (bounded, output returned),
//     Process (a long-lived process such as the agent: ssh -T) and
//     Terminal (ssh -tt), each `cd DIR && exec CMD` inside the remote
//     user's login shell (`exec "$SHELL" -lc '…'`, so a PATH set in
//     ~/.profile applies), every word and environment value quoted for
//     both shells; ListFiles, the `@` picker's list (git ls-files -co
//     --exclude-standard with internal/safegit's settings in a work tree,
//     a bounded find elsewhere); FileCache keeps that list on this machine
//     (memory and a file) and answers from it at once, refreshing it in
//     the background.
//   - attachment staging: Stage uploads a file content-addressed to
//     ~/.cache/chipchat/att/<sha256>/<name> over sftp (github.com/pkg/sftp
//     on `ssh -s sftp` over the master), checks its sha256 on the remote,
//     sends it once (a file already there is only marked used) and keeps
//     the directory under a byte budget, least recently used out first,
//     with an injected clock for the use times.
//   - keeping the master up: Watch holds a sentinel session over it, so
//     its end (a dropped network, sshd restarted) is seen at once, and
//     reconnects in batch mode with backoff (FirstRetry doubling to
//     MaxRetry, on an injected Clock), reporting each Change.
//   - ending a cancelled Process on the remote: its pid is noted there
//     under a token of its own; when its context ends the remote process
//     group gets SIGTERM over the master (ssh without a tty signals
//     nothing).
//   - the first connection: Connect runs in batch mode; Answerable says
//     whether its failure is a question a person can answer (a host key
//     not known yet unless checked strictly, a password the server and
//     the client config take, an identity file's passphrase: from ssh -G
//     and ssh-keygen), the caller then running Interactive in a terminal
//     tab; any other failure is its one line.
//   - forwarding for the MCP endpoint: Forward asks the master to listen
//     on a loopback TCP port of the remote, chosen by sshd (ssh -O
//     forward -R 127.0.0.1:0:SOCKET prints it), carrying its connections
//     to a local unix socket; Unforward ends it; a refusing server is
//     ErrForwardRefused with ssh's line. A port rather than a remote unix
//     socket: agents take an MCP server as an http URL. MasterPID tells a
//     master from the one that replaced it (forwardings end with theirs).
//   - staging a program: StageProgram puts chipchat's own binary (to run
//     its helper, `chipchat remote-helper`) under
//     ~/.cache/chipchat/bin/<sha256>/<name>, executable, never evicted
//     for attachments (staging another removes those unused for 30
//     days), its sha256 checked on the remote each time it is found there;
//     Uname and ParseUname say the remote's system and architecture as
//     Go names them (Platform), for the caller to compare with its own.
//
// Decisions: the remote shell is POSIX-like (sh, bash, zsh, dash, ksh): the
// command line is `exec "${SHELL:-/bin/sh}" -lc 'WORDS'`, which fish and
// csh read differently. A login shell that prints to standard output
// (a ~/.profile that echoes) adds to Run's output. A command that times
// out ends locally at once; its remote process is not signalled (the
// session closes; the process ends on its own or at its next write); a
// Process (the agent) is.
//
// remote implements small interfaces that agent, workspace, composer,
// terminal and review declare (a command runner, a file lister, a process
// starter); main.go wires it in. It imports none of the components
// (composer, chips, transcript, terminal, review, clipboard), nor ui, chat,
// workspace, store or agent; of the project only internal/safegit.
package remote
