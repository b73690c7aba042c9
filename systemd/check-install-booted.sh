#!/bin/sh
# Run by systemd/check-install.sh inside the Debian root it booted with systemd-nspawn, as a service once
# the root is up: the box under its unit's sandbox. Writes what it saw to /check-install-booted.txt, then
# powers the container off.
unit=tabletop-companion.service
demo=tabletop-companion-demo.service
{
    systemctl start "$demo"
    echo "demo: $(systemctl show -p Result --value "$demo") $(systemctl show -p ExecMainStatus --value "$demo")"
    journalctl -u "$demo" -o cat --no-pager | grep -E 'Demo over|Traceback|Error|denied' | tail -n 5
    sleep 8
    echo "menu: $(systemctl is-active "$unit")"
    systemctl stop "$unit"
    echo "menu stopped: $(systemctl show -p Result --value "$unit") $(systemctl show -p ExecMainStatus --value "$unit")"
    journalctl -u "$unit" -o cat --no-pager | grep -E 'Traceback|Error|denied' | tail -n 5
    systemd-analyze security --no-pager "$unit" | tail -n 1
} >/check-install-booted.txt 2>&1
systemctl poweroff
