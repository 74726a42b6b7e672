#!/bin/sh
# A misbehaving UCI engine for the match runner's tests. It answers the handshake, then
# fails its first `go` as MODE says: crash (exits), hang (never answers), illegal (an
# illegal move), slow (a move after 1.5 s, past a 1-second clock), flood (info lines
# without end, never a move). `stall DIR N` crashes
# at each of the first N `go`s of all its runs (counted in DIR/gos), then writes
# DIR/stalled and answers no more (it ends with its input). It declares UCI_Variant with
# antichess, but in modes chess (chess and crazyhouse only) and plain (no such option).
# plain answers an illegal move as illegal does. bare: `bestmove` without a move; spaced:
# its answers indented (`  uciok`), the move
# illegal.
mode=$1
while read -r line; do
    case "$line" in
        uci)
            echo "id name fake-$mode"
            case "$mode" in
                chess) echo "option name UCI_Variant type combo default chess var chess var crazyhouse" ;;
                plain) ;;
                *) echo "option name UCI_Variant type combo default antichess var antichess" ;;
            esac
            echo "  uciok" ;;
        isready) echo "	readyok" ;;
        quit) exit 0 ;;
        go*)
            case "$mode" in
                crash) echo "fake: crashing on go" >&2; exit 3 ;;
                hang) sleep 4 ;;
                illegal | plain) echo "bestmove e2e5" ;;
                bare) echo "bestmove" ;;
                spaced) echo "   bestmove   e2e5" ;;
                slow) sleep 1.5; echo "bestmove e2e3" ;;
                flood) exec yes "info string flood" ;;
                stall)
                    echo go >> "$2/gos"
                    if [ "$(wc -l < "$2/gos")" -le "$3" ]; then exit 3; fi
                    : > "$2/stalled" ;;
            esac ;;
    esac
done
