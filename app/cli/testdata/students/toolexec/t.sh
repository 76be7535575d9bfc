touch /tmp/ringside-e2e-pwned-toolexec
shift
exec "$@"
