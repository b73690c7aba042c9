#!/usr/bin/env bash
# Install, update or remove the tabletop companion on Raspberry Pi OS (Bookworm or Trixie, Pi 4 or 5).
#
#   sudo systemd/install.sh [install]         apt packages, user, venv, the project, the unit (default)
#   sudo systemd/install.sh update            pull a new version of the source, reinstall, restart;
#                                             state (/var/lib/companion) and config (/etc/companion) stay
#   sudo systemd/install.sh uninstall [--keep-state | --yes]
#                                             remove the unit and the venv; state, config and the user
#                                             are kept or removed as asked (--keep-state / --yes answer)
#   systemd/install.sh --dry-run [COMMAND]    print every step without doing anything (no root needed)
#
# Why this way (README.md (Build the box), STYLE.md part 2): picamera2 and libcamera come only from apt, so the venv
# is made with --system-site-packages and sees apt's python3-picamera2, python3-numpy, python3-opencv,
# python3-pygame, python3-gpiozero, python3-lgpio, python3-scipy (the dice statistics' chi-square
# test, companion stats) and python3-babel (numbers written each language's way). The project itself is installed with
# `pip install --no-deps`, so pip never replaces apt's numpy (apt's simplejpeg, which picamera2
# imports, is built against it; a pip numpy breaks it with "numpy.dtype size changed").
# Supported: the apt versions of Raspberry Pi OS Bookworm (Python 3.11, numpy 1.24, OpenCV 4.6,
# pygame 2.1.2) and Trixie (Python 3.13, numpy 2.2, OpenCV 4.10, pygame 2.6).
#
# Running it twice changes nothing the first run did (each step checks first).

set -euo pipefail

APP=tabletop-companion
SERVICE_USER=companion
PREFIX=${COMPANION_PREFIX:-/opt/$APP}
VENV=$PREFIX/venv
SRC_LINK=$PREFIX/src
STATE_DIR=/var/lib/companion
CONFIG_DIR=/etc/companion
UNIT_DIR=${COMPANION_UNIT_DIR:-/etc/systemd/system}
UNIT=$APP.service
POLKIT_RULE=/etc/polkit-1/rules.d/50-$APP.rules
GROUPS_NEEDED=(gpio video render input)
APT_PACKAGES=(
    python3 python3-venv python3-pip python3-setuptools python3-wheel
    python3-numpy python3-opencv python3-picamera2
    python3-gpiozero python3-lgpio
    python3-pygame libsdl2-2.0-0 libgbm1 libegl1 libgles2 libdrm2
    python3-platformdirs python3-scipy python3-babel python3-imagesize
    polkitd git
)

# Printed after installing: the versions the venv really sees (apt's, through --system-site-packages), read
# with importlib.metadata (no gpiozero release has a __version__); informational, never stops the install.
VERSIONS_PY='from companion.app.report import versions_line; print(versions_line())'

# systemd runs on a booted system; not in a chroot or while an image is built, where daemon-reload and
# restarts fail but `systemctl enable` (links in /etc) works. The variable is for the tests' dry runs.
SYSTEMD_RUN_DIR=${COMPANION_SYSTEMD_RUN_DIR:-/run/systemd/system}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE_DIR=${COMPANION_SOURCE:-$(dirname "$SCRIPT_DIR")}
# Who owns the checkout (the user who cloned it): its git hooks and its build backend run as that user,
# never as root; root only copies the built wheel into the venv. The variable is for the tests' dry runs.
SOURCE_OWNER=${COMPANION_SOURCE_OWNER:-$(stat -c %U "$SOURCE_DIR")}
WHEEL_DIR=$PREFIX/wheel

DRY_RUN=0
ANSWER=""   # "yes" (remove state), "keep" (keep state), "" (ask)
COMMAND=install

usage() {
    sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

say() {
    printf '==> %s\n' "$*"
}

# Print a command, then run it (not in a dry run).
run() {
    printf '+ %s\n' "$*"
    if [ "$DRY_RUN" -eq 0 ]; then
        "$@"
    fi
}

# Print a command, then run it as the checkout's owner (not in a dry run): root runs nothing the checkout
# holds (a git hook, setup code), which whoever can write the checkout could change.
as_owner() {
    if [ "$SOURCE_OWNER" = root ]; then
        run "$@"
    else
        run runuser -u "$SOURCE_OWNER" -- "$@"
    fi
}

# True when systemd is the running init (see SYSTEMD_RUN_DIR).
systemd_running() {
    [ -d "$SYSTEMD_RUN_DIR" ]
}

# systemctl daemon-reload, only where systemd runs (a chroot reads the unit at its first boot).
daemon_reload() {
    if systemd_running; then
        run systemctl daemon-reload
    else
        printf '  systemd is not running here (a chroot or an image being built): no daemon-reload\n'
    fi
}

die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            install | update | uninstall) COMMAND=$1 ;;
            --dry-run | -n) DRY_RUN=1 ;;
            --yes | -y) ANSWER=yes ;;
            --keep-state) ANSWER=keep ;;
            -h | --help) usage; exit 0 ;;
            *) printf 'install.sh: unknown argument %s\n' "$1" >&2; usage >&2; exit 2 ;;
        esac
        shift
    done
}

check_system() {
    local codename=unknown
    if [ -r /etc/os-release ]; then
        # shellcheck disable=SC1091
        codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-unknown}")
    fi
    case "$codename" in
        bookworm | trixie) say "Raspberry Pi OS / Debian $codename" ;;
        *) say "warning: $codename is not Bookworm or Trixie; continuing, but only those are supported" ;;
    esac
    if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
        die "run as root (sudo $0 $COMMAND), or add --dry-run to see the steps"
    fi
}

install_packages() {
    say "apt packages (picamera2, numpy, OpenCV, pygame, gpiozero and lgpio come from apt)"
    run apt-get update
    run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
}

create_user() {
    say "service user $SERVICE_USER (groups: ${GROUPS_NEEDED[*]})"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        printf '  user %s exists\n' "$SERVICE_USER"
    else
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        if ! getent group "$group" >/dev/null; then
            run groupadd --system "$group"
        fi
    done
    run usermod --append --groups "$(IFS=,; printf '%s' "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
}

install_venv() {
    say "venv $VENV (--system-site-packages: sees apt's picamera2, numpy, OpenCV, pygame)"
    run install -d -m 0755 "$PREFIX"
    if [ ! -L "$SRC_LINK" ] || [ "$(readlink -f "$SRC_LINK")" != "$(readlink -f "$SOURCE_DIR")" ]; then
        run ln -sfn "$SOURCE_DIR" "$SRC_LINK"
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        run python3 -m venv --system-site-packages "$VENV"
    else
        printf '  venv exists\n'
    fi
    install_project
}

install_project() {
    say "the project from $SOURCE_DIR, without dependencies (apt provides them; apt's numpy stays)"
    say "built as $SOURCE_OWNER, who owns the checkout; root installs the wheel"
    run rm -rf "$WHEEL_DIR"
    run install -d -m 0755 -o "$SOURCE_OWNER" "$WHEEL_DIR"
    as_owner "$VENV/bin/pip" wheel --no-deps --no-build-isolation --no-cache-dir --wheel-dir "$WHEEL_DIR" "$SOURCE_DIR"
    if [ "$DRY_RUN" -eq 1 ]; then
        run "$VENV/bin/pip" install --no-deps --no-index --force-reinstall "$WHEEL_DIR/tabletop_companion-VERSION-py3-none-any.whl"
    else
        local wheel
        wheel=$(find "$WHEEL_DIR" -maxdepth 1 -name 'tabletop_companion-*.whl' -type f | head -n 1)
        [ -n "$wheel" ] || die "the wheel was not built in $WHEEL_DIR"
        run "$VENV/bin/pip" install --no-deps --no-index --force-reinstall "$wheel"
    fi
    run rm -rf "$WHEEL_DIR"
    printf '+ %s\n' "$VENV/bin/python -c '$VERSIONS_PY'"
    if [ "$DRY_RUN" -eq 0 ]; then
        "$VENV/bin/python" -c "$VERSIONS_PY" || printf '  warning: the versions could not be listed\n'
    fi
}

install_config() {
    say "config $CONFIG_DIR/config.toml (kept when it exists) and state $STATE_DIR"
    run install -d -m 0755 "$CONFIG_DIR"
    if [ ! -e "$CONFIG_DIR/config.toml" ]; then
        run install -m 0644 "$SOURCE_DIR/assets/config.example.toml" "$CONFIG_DIR/config.toml"
        # The box's screen: full screen at the screen's own resolution.
        run sed -i 's/^fullscreen = false/fullscreen = true/' "$CONFIG_DIR/config.toml"
    else
        printf '  %s exists: kept\n' "$CONFIG_DIR/config.toml"
    fi
    run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"
}

install_unit() {
    say "systemd unit $UNIT and the polkit rule that lets the menu power the Pi off"
    run install -m 0644 "$SCRIPT_DIR/$UNIT" "$UNIT_DIR/$UNIT"
    run install -d -m 0755 "$(dirname "$POLKIT_RULE")"
    run install -m 0644 "$SCRIPT_DIR/50-$APP.rules" "$POLKIT_RULE"
    daemon_reload
    run systemctl enable "$UNIT"
}

console_boot() {
    say "boot to the console (the box draws through KMS/DRM; a desktop would hold the screen)"
    if command -v raspi-config >/dev/null 2>&1; then
        run raspi-config nonint do_boot_behaviour B1
    else
        printf '  raspi-config not found: make sure no desktop starts at boot\n'
    fi
}

do_install() {
    check_system
    install_packages
    create_user
    install_venv
    install_config
    install_unit
    console_boot
    say "done: reboot, or start now with: sudo systemctl start $UNIT"
    say "self-test (README.md (Build the box), First boot): sudo systemctl stop $UNIT, then sudo -u $SERVICE_USER $VENV/bin/companion selftest (it finds $STATE_DIR and $CONFIG_DIR/config.toml)"
}

do_update() {
    check_system
    [ -x "$VENV/bin/python" ] || [ "$DRY_RUN" -eq 1 ] || die "not installed yet: run $0 install"
    say "new version of the source in $SOURCE_DIR (state and config are not touched)"
    if [ -d "$SOURCE_DIR/.git" ]; then
        as_owner git -C "$SOURCE_DIR" pull --ff-only
    else
        printf '  %s is not a git checkout: copy the new version there, then run update again\n' "$SOURCE_DIR"
    fi
    install_project
    run install -m 0644 "$SCRIPT_DIR/$UNIT" "$UNIT_DIR/$UNIT"
    run install -d -m 0755 "$(dirname "$POLKIT_RULE")"
    run install -m 0644 "$SCRIPT_DIR/50-$APP.rules" "$POLKIT_RULE"
    daemon_reload
    if systemd_running; then
        run systemctl try-restart "$UNIT"
    else
        printf '  systemd is not running here: the new version starts at the next boot\n'
    fi
}

ask_remove_state() {
    case "$ANSWER" in
        yes) return 0 ;;
        keep) return 1 ;;
    esac
    if [ "$DRY_RUN" -eq 1 ] || [ ! -t 0 ]; then
        printf '  not asked (no terminal or dry run): state and config are kept; --yes removes them\n'
        return 1
    fi
    local reply
    read -r -p "Remove saved games, scores and calibration ($STATE_DIR) and config ($CONFIG_DIR)? [y/N] " reply
    case "$reply" in
        y | Y | yes | YES) return 0 ;;
        *) return 1 ;;
    esac
}

do_uninstall() {
    check_system
    say "stop and remove the unit, the polkit rule and $PREFIX"
    if [ -e "$UNIT_DIR/$UNIT" ] || [ "$DRY_RUN" -eq 1 ]; then
        if systemd_running; then
            run systemctl disable --now "$UNIT"
        else
            run systemctl disable "$UNIT"
        fi
        run rm -f "$UNIT_DIR/$UNIT"
        daemon_reload
    fi
    run rm -f "$POLKIT_RULE"
    run rm -rf "$PREFIX"
    if ask_remove_state; then
        say "removing state and config, and the user $SERVICE_USER"
        run rm -rf "$STATE_DIR" "$CONFIG_DIR"
        if id -u "$SERVICE_USER" >/dev/null 2>&1 || [ "$DRY_RUN" -eq 1 ]; then
            run userdel "$SERVICE_USER"
        fi
    else
        say "kept $STATE_DIR, $CONFIG_DIR and the user $SERVICE_USER (a new install picks them up)"
    fi
    say "apt packages are left installed (other programs may use them)"
}

main() {
    parse_args "$@"
    if [ "$DRY_RUN" -eq 1 ]; then
        say "dry run: printing the steps of '$COMMAND', changing nothing"
    fi
    case "$COMMAND" in
        install) do_install ;;
        update) do_update ;;
        uninstall) do_uninstall ;;
    esac
}

main "$@"
