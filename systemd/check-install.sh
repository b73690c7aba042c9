#!/usr/bin/env bash
# Install the box for real in a fresh Debian root and check it end to end (README.md, Build the box).
# Not part of the test suite: it downloads a minimal Debian (a few hundred MB) and needs root.
#
#   sudo systemd/check-install.sh [--suite bookworm|trixie] [--tests] [--root DIR] [--keep]
#
#   --suite     the Debian release under Raspberry Pi OS (default bookworm)
#   --tests     also run a subset of the test suite on that release's apt stack (numpy, OpenCV, pygame,
#               gpiozero, scipy, Babel from apt, seen through the installed venv's --system-site-packages);
#               TESTS="tests/... -k ..." chooses other tests
#   --root DIR  build the root there (default: a new folder under /var/tmp; removed at the end)
#   --keep      keep the root afterwards (to look around: sudo chroot DIR)
#
# Needs Debian's mmdebstrap and systemd-nspawn (apt-get install -y mmdebstrap systemd-container). The steps:
#   1. stand-ins for the packages Raspberry Pi OS has and Debian lacks (python3-picamera2, python3-lgpio):
#      empty packages made with dpkg-deb, so that install.sh's apt-get install finds them;
#   2. mmdebstrap SUITE with systemd and sudo, then the stand-ins; this working tree copied to
#      /home/pi/tabletop-companion; services never start inside (policy-rc.d), and systemd does not run
#      there (as when an image is built in a chroot);
#   3. install.sh install, twice, from a checkout owned by the user pi (its code is built as pi, never as
#      root); the unit enabled; `sudo -u companion companion selftest` reports the state /var/lib/companion
#      and the config /etc/companion/config.toml, and passes with SDL's dummy display; `companion demo
#      --headless` from the installed venv plays to "Demo over"; the root booted with systemd-nspawn
#      (systemd its init): the demo plays to its end as a service with the unit's sandbox, the unit starts
#      the menu at boot (SDL's dummy display and mock pins, a drop-in) and `systemctl stop` ends it with
#      status 0, `systemd-analyze security` rates the unit 4.0 or lower; `companion report` writes an
#      archive with no saved games in it;
#   4. with --tests, the tests below on the apt stack;
#   5. install.sh update, twice (the service's state is kept); install.sh uninstall --yes, twice; nothing
#      of the box is left.
# Each step prints "check: ..." and the script ends with "check-install: all N checks passed" (exit 0), or
# stops at the first failure (exit 1).

set -euo pipefail

# The whole script is one block, read before it runs: editing the file meanwhile cannot change a run.
{
SUITE=bookworm
RUN_TESTS=0
ROOT=""
KEEP=0
MIRROR=${MIRROR:-http://deb.debian.org/debian}
DEFAULT_TESTS="tests/games tests/test_store.py tests/session tests/app/test_rules.py tests/app/test_selftest.py \
tests/app/test_play_cant_stop.py tests/app/test_play_donkey_race.py tests/app/test_play_ludo.py tests/app/test_menu.py \
tests/app/test_inputs.py tests/app/test_leds.py tests/hardware tests/vision/dice tests/stats tests/test_config.py \
tests/test_paths.py tests/test_i18n.py tests/cli/test_dice.py tests/cli/test_stats.py tests/cli/test_report.py"
TESTS=${TESTS:-$DEFAULT_TESTS}

# install.sh's own lines: its steps (==>) and notes, and the versions it prints.
SHOWN='^==>|^  (user |venv |/etc/|systemd |raspi-config |not asked|warning|/home/)|python 3\.[0-9]+'

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
APP_DIR=/home/pi/tabletop-companion
VENV=/opt/tabletop-companion/venv
CHECKS=0
MOUNTED=()

usage() {
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --suite) SUITE=${2:?--suite needs bookworm or trixie}; shift ;;
        --tests) RUN_TESTS=1 ;;
        --root) ROOT=${2:?--root needs a folder}; shift ;;
        --keep) KEEP=1 ;;
        -h | --help) usage; exit 0 ;;
        *) printf 'check-install.sh: unknown argument %s\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
case "$SUITE" in
    bookworm | trixie) ;;
    *) printf 'check-install.sh: --suite is bookworm or trixie, not %s\n' "$SUITE" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { printf 'check-install.sh: run as root (it builds and enters a Debian root)\n' >&2; exit 1; }
command -v mmdebstrap >/dev/null || { printf 'check-install.sh: mmdebstrap is missing: apt-get install -y mmdebstrap\n' >&2; exit 1; }
command -v systemd-nspawn >/dev/null \
    || { printf 'check-install.sh: systemd-nspawn is missing: apt-get install -y systemd-container\n' >&2; exit 1; }

WORK=$(mktemp -d /var/tmp/check-install.XXXXXX)
ROOT=${ROOT:-$WORK/root}

say() { printf '==> %s\n' "$*"; }
pass() { CHECKS=$((CHECKS + 1)); printf 'check: %s: ok\n' "$*"; }
fail() { printf 'check: %s: FAILED\n' "$*" >&2; exit 1; }

# shellcheck disable=SC2329  # called by the EXIT trap
cleanup() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount -l "${MOUNTED[$i]}" 2>/dev/null || true
    done
    if [ "$KEEP" -eq 0 ]; then
        rm -rf "$WORK"
        [ "$ROOT" = "$WORK/root" ] || rm -rf "$ROOT"
    else
        rm -f "$ROOT/usr/sbin/policy-rc.d"
        printf 'kept the root: %s (sudo chroot %s)\n' "$ROOT" "$ROOT"
    fi
}
trap cleanup EXIT

# Run a command inside the root, as root (systemd is not running there).
in_root() {
    chroot "$ROOT" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# An empty package named $1 (version $2) in $WORK/debs: a stand-in for a Raspberry Pi OS package.
stand_in() {
    local name=$1 version=$2 dir=$WORK/debs/$1
    mkdir -p "$dir/DEBIAN"
    cat >"$dir/DEBIAN/control" <<EOF
Package: $name
Version: $version
Architecture: all
Maintainer: check-install.sh <nobody@localhost>
Description: empty stand-in for Raspberry Pi OS's $name (systemd/check-install.sh)
EOF
    dpkg-deb --build --root-owner-group "$dir" "$WORK/debs/${name}_${version}_all.deb" >/dev/null
}

say "stand-in packages for Raspberry Pi OS's python3-picamera2 and python3-lgpio"
stand_in python3-picamera2 0~standin
stand_in python3-lgpio 0~standin
pass "stand-ins built"

say "mmdebstrap $SUITE into $ROOT (downloads a minimal system)"
started=$(date +%s)
mmdebstrap --variant=apt --include=systemd,systemd-sysv,sudo,ca-certificates,dbus \
    "$SUITE" "$ROOT" "$MIRROR" >"$WORK/mmdebstrap.log" 2>&1 || { tail -n 30 "$WORK/mmdebstrap.log"; fail "mmdebstrap"; }
pass "$SUITE root built in $(($(date +%s) - started)) s"

# No service starts inside the root (invoke-rc.d asks policy-rc.d; image builders do the same).
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
grep -q "[[:space:]]$(hostname)\$" "$ROOT/etc/hosts" 2>/dev/null || printf '127.0.1.1\t%s\n' "$(hostname)" >>"$ROOT/etc/hosts"
# The chroot's view of the host: /proc, /sys, /dev (undone while the root boots by itself).
mount_root() {
    mount -t proc proc "$ROOT/proc" && MOUNTED+=("$ROOT/proc")
    mount --bind /sys "$ROOT/sys" && MOUNTED+=("$ROOT/sys")
    mount --bind /dev "$ROOT/dev" && MOUNTED+=("$ROOT/dev")
    mount --bind /dev/pts "$ROOT/dev/pts" && MOUNTED+=("$ROOT/dev/pts")
}
umount_root() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount -l "${MOUNTED[$i]}"
    done
    MOUNTED=()
}
mount_root
[ ! -d "$ROOT/run/systemd/system" ] || fail "systemd must not look running in the root"
cp "$WORK"/debs/*.deb "$ROOT/tmp/"
in_root sh -c 'dpkg -i /tmp/*_0~standin_all.deb && rm /tmp/*_0~standin_all.deb' >/dev/null
pass "stand-ins installed in the root"

say "this working tree -> $ROOT$APP_DIR"
mkdir -p "$ROOT$APP_DIR"
git -C "$SOURCE" ls-files -z --cached --others --exclude-standard \
    | (cd "$SOURCE" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$ROOT$APP_DIR"
chmod 0755 "$ROOT$APP_DIR/systemd/install.sh"
in_root useradd --create-home --shell /bin/bash pi
in_root chown -R pi:pi "$APP_DIR"
pass "source copied ($(du -sh "$ROOT$APP_DIR" | cut -f1)), owned by the user pi as a clone is"

for round in 1 2; do
    say "install.sh install (round $round)"
    in_root "$APP_DIR/systemd/install.sh" install </dev/null >"$WORK/install-$round.log" 2>&1 \
        || { tail -n 40 "$WORK/install-$round.log"; fail "install.sh install, round $round"; }
    grep -E "$SHOWN" "$WORK/install-$round.log" || true
    pass "install.sh install, round $round"
done

[ "$(in_root systemctl is-enabled tabletop-companion.service)" = enabled ] || fail "the unit is enabled"
[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/tabletop-companion.service" ] || fail "the unit's link"
pass "tabletop-companion.service enabled (multi-user.target.wants)"
grep -q '^fullscreen = true' "$ROOT/etc/companion/config.toml" \
    || fail "the config /etc/companion/config.toml with fullscreen = true"
[ "$(in_root stat -c %U /var/lib/companion)" = companion ] || fail "the state /var/lib/companion owned by companion"
pass "config /etc/companion/config.toml and state /var/lib/companion in place"

say "sudo -u companion $VENV/bin/companion selftest"
set +e
in_root sudo -u companion "$VENV/bin/companion" selftest >"$WORK/selftest.txt" 2>&1
status=$?
set -e
sed 's/^/    /' "$WORK/selftest.txt"
grep -q 'state /var/lib/companion (writable)' "$WORK/selftest.txt" || fail "selftest sees the state /var/lib/companion"
grep -q 'config /etc/companion/config.toml (present)' "$WORK/selftest.txt" \
    || fail "selftest sees the config /etc/companion/config.toml"
pass "selftest by hand reports the state /var/lib/companion and the config /etc/companion/config.toml (exit $status: no screen in a chroot)"
in_root sudo -u companion env SDL_VIDEODRIVER=dummy "$VENV/bin/companion" selftest >"$WORK/selftest-dummy.txt" 2>&1 \
    || { cat "$WORK/selftest-dummy.txt"; fail "selftest with SDL's dummy display passes"; }
pass "selftest with SDL's dummy display passes (exit 0)"

say "companion demo --headless from the installed venv"
in_root sudo -u companion env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$VENV/bin/companion" demo --headless \
    >"$WORK/demo.txt" 2>&1 || { tail -n 20 "$WORK/demo.txt"; fail "companion demo --headless"; }
tail -n 2 "$WORK/demo.txt" | sed 's/^/    /'
grep -q 'Demo over' "$WORK/demo.txt" || fail "the demo plays to Demo over"
pass "demo --headless plays to \"Demo over\""

say "the unit's sandbox: the root booted with systemd-nspawn, systemd its init"
UNITS=$ROOT/etc/systemd/system
mkdir -p "$UNITS/tabletop-companion.service.d" "$UNITS/tabletop-companion-demo.service.d"
# In the container: no screen and no GPIO chip. SDL's dummy display, gpiozero's mock pins.
printf '[Service]\nEnvironment=SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock\n' \
    | tee "$UNITS/tabletop-companion.service.d/check-install.conf" \
    >"$UNITS/tabletop-companion-demo.service.d/check-install.conf"
# The demo as a service with the unit's sandbox: the unit with another command, run once.
sed -e "s#^ExecStart=.*#ExecStart=$VENV/bin/companion demo --headless#" -e 's/^Type=exec/Type=oneshot/' \
    -e '/^Restart/d' -e '/^\[Install\]/,$d' "$UNITS/tabletop-companion.service" >"$UNITS/tabletop-companion-demo.service"
cp "$SOURCE/systemd/check-install-booted.sh" "$ROOT/usr/local/sbin/check-install-booted"
chmod 0755 "$ROOT/usr/local/sbin/check-install-booted"
printf '[Unit]\nAfter=multi-user.target tabletop-companion.service\n[Service]\nType=oneshot\nExecStart=%s\n' \
    /usr/local/sbin/check-install-booted >"$UNITS/check-install-booted.service"
ln -sf /etc/systemd/system/check-install-booted.service "$UNITS/multi-user.target.wants/check-install-booted.service"
umount_root
rm -f "$ROOT/check-install-booted.txt"
timeout 600 systemd-nspawn --quiet --register=no --keep-unit --directory="$ROOT" --boot >"$WORK/boot.log" 2>&1 \
    || { tail -n 30 "$WORK/boot.log"; fail "the root boots with systemd-nspawn"; }
mount_root
[ -f "$ROOT/check-install-booted.txt" ] || { tail -n 30 "$WORK/boot.log"; fail "the booted root ran its checks"; }
sed 's/^/    /' "$ROOT/check-install-booted.txt"
grep -q '^demo: success 0$' "$ROOT/check-install-booted.txt" || fail "the demo plays to its end under the unit's sandbox"
grep -q 'Demo over' "$ROOT/check-install-booted.txt" || fail "the demo under the sandbox says Demo over"
pass "the demo plays to \"Demo over\" as a service with the unit's sandbox"
grep -q '^menu: active$' "$ROOT/check-install-booted.txt" || fail "the unit starts the menu at boot"
grep -q '^menu stopped: success 0$' "$ROOT/check-install-booted.txt" || fail "systemctl stop ends the menu with status 0"
pass "the unit starts the menu at boot, and systemctl stop ends it with status 0"
score=$(sed -n 's/.*Overall exposure level for tabletop-companion.service: \([0-9.]*\).*/\1/p' \
    "$ROOT/check-install-booted.txt")
if [ -z "$score" ] || ! awk -v s="$score" 'BEGIN { exit !(s <= 4.0) }'; then
    fail "systemd-analyze security rates the unit 4.0 or lower"
fi
pass "systemd-analyze security tabletop-companion.service: $score (4.0 or lower)"
rm -rf "$UNITS/tabletop-companion.service.d" "$UNITS/tabletop-companion-demo.service"* \
    "$UNITS/check-install-booted.service" "$UNITS/multi-user.target.wants/check-install-booted.service" \
    "$ROOT/usr/local/sbin/check-install-booted" "$ROOT/check-install-booted.txt"

say "companion report"
in_root sudo -u companion touch /var/lib/companion/companion.sqlite3 /var/lib/companion/errors.log
archive=$(in_root sudo -u companion "$VENV/bin/companion" report --output /tmp/report.tar.gz)
[ "$archive" = /tmp/report.tar.gz ] || fail "companion report prints its archive's path"
listing=$(tar -tzf "$ROOT/tmp/report.tar.gz")
printf '%s\n' "$listing" | sed 's/^/    /'
! grep -q sqlite <<<"$listing" || fail "no saved games in the report"
grep -q 'config.toml$' <<<"$listing" || fail "the config in the report"
pass "report archive written, with the config and without the saved games"

if [ "$RUN_TESTS" -eq 1 ]; then
    say "tests on $SUITE's apt stack (python3-pytest, python3-pytest-xdist, python3-hypothesis from apt)"
    in_root apt-get install -y --no-install-recommends python3-pytest python3-pytest-xdist python3-hypothesis >/dev/null
    in_root "$VENV/bin/python" -c 'from companion.app.report import versions_line; print(versions_line())' \
        | sed 's/^/    /'
    # shellcheck disable=SC2086  # TESTS is a list of words
    in_root sh -c "cd $APP_DIR && SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $VENV/bin/python -m pytest \
        -p no:cacheprovider -q $TESTS" >"$WORK/tests.txt" 2>&1 || {
        tail -n 60 "$WORK/tests.txt"; fail "the tests on $SUITE's apt stack"; }
    tail -n 3 "$WORK/tests.txt" | sed 's/^/    /'
    pass "the tests on $SUITE's apt stack"
fi

for round in 1 2; do
    say "install.sh update (round $round)"
    in_root "$APP_DIR/systemd/install.sh" update </dev/null >"$WORK/update-$round.log" 2>&1 \
        || { cat "$WORK/update-$round.log"; fail "install.sh update, round $round"; }
    grep -E "$SHOWN" "$WORK/update-$round.log" || true
    pass "install.sh update, round $round"
done
[ -f "$ROOT/var/lib/companion/errors.log" ] || fail "update keeps the state"
[ -f "$ROOT/etc/companion/config.toml" ] || fail "update keeps the config"
[ "$(in_root systemctl is-enabled tabletop-companion.service)" = enabled ] || fail "the unit is still enabled"
pass "update kept the state, the config and the enabled unit"

for round in 1 2; do
    say "install.sh uninstall --yes (round $round)"
    in_root "$APP_DIR/systemd/install.sh" uninstall --yes </dev/null >"$WORK/uninstall-$round.log" 2>&1 \
        || { cat "$WORK/uninstall-$round.log"; fail "install.sh uninstall --yes, round $round"; }
    grep -E "$SHOWN" "$WORK/uninstall-$round.log" || true
    pass "install.sh uninstall --yes, round $round"
done
for path in /opt/tabletop-companion /etc/systemd/system/tabletop-companion.service \
    /etc/systemd/system/multi-user.target.wants/tabletop-companion.service \
    /etc/polkit-1/rules.d/50-tabletop-companion.rules /var/lib/companion /etc/companion; do
    if [ -e "$ROOT$path" ] || [ -L "$ROOT$path" ]; then fail "$path removed"; fi
done
! in_root id -u companion >/dev/null 2>&1 || fail "the user companion removed"
pass "nothing of the box is left (venv, unit, polkit rule, state, config, user)"

printf 'check-install: all %d checks passed on %s\n' "$CHECKS" "$SUITE"
exit 0
}
