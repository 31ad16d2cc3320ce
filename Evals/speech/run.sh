#!/bin/sh
# The speech round trip: see run.py. run.sh [--gate] [--quick] [--half tune] [BUILD_DIR]
set -eu
# The user's library, contacts and store must not reach the run: it has a home of its own.
unset PB_LIBRARY PB_CALENDAR_DIR PB_WORK_HOURS PB_CONTACTS
TZ=UTC; export TZ
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
PB_HOME=$home; export PB_HOME
here=$(cd "$(dirname "$0")" && pwd)
build=.build/release
set -- "$@"
args=""
for a in "$@"; do
  case $a in
    --*|check|tune|espeak-*|festival) args="$args $a" ;;
    *) build=$a ;;
  esac
done
# shellcheck disable=SC2086
exec python3 "$here/run.py" "$build" $args
