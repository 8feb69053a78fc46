#!/usr/bin/env bash
# Draw the pictures of docs/boards/ with `meeple render`: each seed game after some random moves, as SVG
# and (where a PNG converter is installed: pip install 'meeple[png]') as PNG. Run from this folder.
set -euo pipefail
draw() {  # NAME, then meeple render's arguments
    local name=$1
    shift
    meeple render "$@" -O "$name.svg"
    meeple render "$@" -O "$name.png" || echo "no PNG of $name (pip install 'meeple[png]')"
}
draw caravan_conquest caravan_conquest --players 2 --seed 1 --moves 150
draw climbers_of_verdon climbers_of_verdon --players 3 --seed 1 --moves 200
draw k2 k2 --players 3 --seed 1 --moves 60
draw k2_hard k2 --players 3 --seed 1 --moves 60 --option board=hard
draw pluvionauts pluvionauts --players 2 --seed 1 --moves 40
draw tabletop_climber tabletop_climber --players 3 --seed 1 --moves 40
