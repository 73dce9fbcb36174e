# Sourced by the *_instructions.sh scripts: runs a benchmark program under callgrind with collection
# off until its client requests toggle it, and prints the instructions of each dump it asked for,
# one per line in the order made (the dump callgrind writes at exit is not the program's, and is
# skipped). The program's stdout goes to "$out/stdout".
#   callgrind_dumps PROGRAM OUT_DIR
callgrind_dumps() {
  local bin=$1 out=$2 f
  valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out/cg.%p" "$bin" >"$out/stdout" 2>"$out/stderr"
  for f in $(cd "$out" && ls cg.* | sort -t. -k3 -n); do
    f=$out/$f
    grep -q '^desc: Trigger: Client Request' "$f" || continue
    awk '/^summary:/ {print $2}' "$f"
  done
}
