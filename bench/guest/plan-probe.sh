#!/bin/sh
# Smallest plan: proves the guest boots, runs /init and hands files back.
set -eu
uname -r > "$1/probe.txt"
