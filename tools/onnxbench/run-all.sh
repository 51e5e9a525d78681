#!/bin/sh
# The issue-30 comparison (see compare.mjs). Usage: sh run-all.sh [rounds] [--int8]
set -e
cd "$(dirname "$0")"
node compare.mjs --rounds "${1:-5}" ${2:-}
