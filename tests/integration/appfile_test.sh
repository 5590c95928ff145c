#!/usr/bin/env bash
# impirun -server N -file F (IMPI 2.2.3): the server starts the clients the
# application file lists, $hostport replaced by its address; a client on
# "another host" goes through $IMPI_LAUNCH_AGENT (here a stand-in for ssh
# that logs its arguments and runs the command locally). Also: a file that
# lists the wrong number of clients is refused.
set -u
impirun=$1 prog=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_appfile.XXXXXX")
trap 'rm -rf "$work"' EXIT
export IMPI_AUTH_KEY=987654321
bindir=$(dirname "$impirun")
cat > "$work/agent.sh" <<AGENT
#!/usr/bin/env bash
# stand-in for ssh: HOST COMMAND ARGS... (COMMAND is "impirun", found in PATH)
echo "agent: \$*" >> "$work/agent.log"
shift
PATH=$bindir:\$PATH exec "\$@"
AGENT
chmod +x "$work/agent.sh"
cat > "$work/appfile" <<APP
# client 0 here, client 1 on "node-b" through the launch agent
localhost -client 0 \$hostport -np 2 --address 127.0.0.1 $prog 5
node-b -client 1 \$hostport -np 3 --address 127.0.0.2 $prog 5
APP
out=$(IMPI_LAUNCH_AGENT="$work/agent.sh" "$impirun" -server 2 --address 127.0.0.1 -file "$work/appfile" 2>&1)
rc=$?
echo "$out"
[ $rc = 0 ] || { echo "FAIL: exit $rc"; exit 1; }
echo "$out" | head -1 | grep -Eq '^127\.0\.0\.1:[0-9]+$' || { echo "FAIL: the first line is not the server's address"; exit 1; }
for r in 0 1 2 3 4; do echo "$out" | grep -q "^rank $r of 5 ok" || { echo "FAIL: rank $r"; exit 1; }; done
grep -Eq "^agent: node-b impirun -client 1 127\.0\.0\.1:[0-9]+ -np 3" "$work/agent.log" ||
  { echo "FAIL: the agent was not used as expected: $(cat "$work/agent.log" 2>/dev/null)"; exit 1; }
printf 'localhost -client 0 $hostport -np 1 %s 1\n' "$prog" > "$work/short"
"$impirun" -server 2 --address 127.0.0.1 -file "$work/short" > "$work/short.out" 2>&1 && { echo "FAIL: accepted"; exit 1; }
grep -q "lists 1 clients, but -server 2 expects 2" "$work/short.out" || { echo "FAIL: $(cat "$work/short.out")"; exit 1; }
echo "ok: the application file's clients ran"
