#!/usr/bin/env python3
"""The numbers of Benchmarks/bar-energy.

  report.py --snapshot UID        CPU times of every process of UID now (JSON lines)
  report.py OUT UID "MODULES"     the report, as Markdown, from what the run left in OUT
"""
import json
import os
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def snapshot(uid):
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.stat(f"/proc/{entry}").st_uid != uid:
                continue
            with open(f"/proc/{entry}/stat") as f:
                raw = f.read()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces or parentheses itself.
        comm = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        # Fields 14-17 of proc(5): utime, stime, cutime, cstime; 4: ppid.
        utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
        print(json.dumps({"pid": int(entry), "ppid": int(fields[1]), "comm": comm, "own": utime + stime, "children": cutime + cstime}))


def read_snapshot(path):
    with open(path) as f:
        return {(p["pid"], p["comm"]): p for p in map(json.loads, f)}


def cpu(out, phase):
    """CPU seconds of the window, by group, from the live processes' own and reaped children's times."""
    before, after = read_snapshot(f"{out}/{phase}.before"), read_snapshot(f"{out}/{phase}.after")
    groups = {}
    for key, end in after.items():
        start = before.get(key)
        if start is None or key[1] == "sway":
            continue  # started within the window (none are long-lived) or the compositor
        own = (end["own"] - start["own"]) / TICK
        children = (end["children"] - start["children"]) / TICK
        name = key[1]
        group = groups.setdefault(name, {"own": 0.0, "children": 0.0, "count": 0})
        group["own"] += own
        group["children"] += children
        group["count"] += 1
    return groups


def acct(out, uid, t0, t1):
    """Processes of UID that began in [t0, t1), by command: count, and CPU in 10 ms ticks (dump-acct output)."""
    by_command = {}
    with open(f"{out}/pacct.txt", errors="replace") as f:
        for line in f:
            fields = [x.strip() for x in line.split("|")]
            if len(fields) < 15 or fields[5] != str(uid):
                continue
            began = time.mktime(time.strptime(fields[-1], "%a %b %d %H:%M:%S %Y"))
            if not t0 <= began < t1:
                continue
            # dump-acct prints times in clock ticks of the accounting file (100 a second).
            seconds = (float(fields[2]) + float(fields[3])) / 100
            entry = by_command.setdefault(fields[0], [0, 0.0])
            entry[0] += 1
            entry[1] += seconds
    return by_command


class Expected:
    """What each module should show at an instant, from the same data the widgets read."""

    def __init__(self, out):
        data = f"{out}/data"
        self.weather = open(f"{data}/weather").read().strip()
        self.target = int(open(f"{data}/countdown").read())
        self.calendar = [line.split() for line in open(f"{data}/calendar")]
        self.quotes = [line.rstrip("\n") for line in open(f"{data}/quotes")]
        self.boot = next(int(line.split()[1]) for line in open("/proc/stat") if line.startswith("btime"))
        self.world = []
        for line in open(f"{out}/world.log"):
            parts = line.split()
            self.world.append((int(parts[0]), {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}))

    def world_at(self, t, name):
        value = None
        for when, values in self.world:
            if when <= t:
                value = values[name]
        return value

    def text(self, module, t):
        g = time.gmtime(t)
        if module == "clock":
            return time.strftime("%H:%M", g)
        if module == "date":
            return time.strftime("%a %d %b", g)
        if module == "weather":
            return self.weather
        if module == "load":
            return f"load {self.world_at(t, 'load')}"
        if module == "memory":
            return f"mem {self.world_at(t, 'mem')}%"
        if module == "battery":
            return f"bat {self.world_at(t, 'battery')}%"
        if module == "calendar":
            for start, hhmm, title in self.calendar:
                if int(start) > t:
                    return f"next {hhmm} {title}"
            return "no events"
        if module == "quote":
            return self.quotes[t // 3600 % 8]
        if module == "uptime":
            s = t - self.boot
            return f"up {s // 3600}h {s % 3600 // 60:02d}m"
        if module == "countdown":
            left = self.target - t
            return f"{left // 3600}h {left % 3600 // 60:02d}m left"
        raise ValueError(module)


def freshness(out, modules):
    """Per phase and module: samples, right at that instant (2 s of slack), right within the minute."""
    expected = Expected(out)
    result = {}
    misses = []
    for line in open(f"{out}/samples.tsv"):
        phase, when, module, shown = line.rstrip("\n").split("\t", 3)
        when = int(when)
        if shown.startswith("{"):
            try:
                shown = json.loads(shown)["text"]
            except (ValueError, KeyError):
                pass
        now = any(expected.text(module, t) == shown for t in range(when - 2, when + 1))
        minute = now or any(expected.text(module, t) == shown for t in range(when - 62, when + 1))
        row = result.setdefault((phase, module), [0, 0, 0])
        row[0] += 1
        row[1] += now
        row[2] += minute
        if not minute:
            misses.append(f"{phase} {time.strftime('%H:%M:%S', time.gmtime(when))} {module}: shows {shown!r}, expected {expected.text(module, when)!r}")
    return result, misses


def report(out, uid, modules):
    phases = ["polling", "widgetd"]
    windows, launches, cpus, commands, groups, loads = {}, {}, {}, {}, {}, {}
    # The window runs from a minute before the first sample to the last: the samples' grid,
    # which a step of the wall clock at either end (another program's) cannot move.
    grid = {}
    for line in open(f"{out}/samples.tsv"):
        phase, when = line.split("\t")[:2]
        grid.setdefault(phase, []).append(int(when))
    for phase in phases:
        t0, t1 = min(grid[phase]) - 60, max(grid[phase])
        windows[phase] = t1 - t0
        by_command = acct(out, uid, t0, t1)
        commands[phase] = by_command
        launches[phase] = sum(n for n, _ in by_command.values())
        groups[phase] = cpu(out, phase)
        cpus[phase] = sum(g["own"] + g["children"] for g in groups[phase].values())
        loads[phase] = open(f"{out}/{phase}.load").read().strip()
    fresh, misses = freshness(out, modules)

    def ratio(a, b):
        return f"{a / b:.1f}x" if b else "∞"

    print("| measured over the window | polling (interval + script) | widgetd (timelines + watch) | polling / widgetd |")
    print("|---|---:|---:|---:|")
    print(f"| window (s) | {windows['polling']} | {windows['widgetd']} | |")
    # Per ten minutes, should the windows differ by a second or two.
    launches = {p: launches[p] * 600 / windows[p] for p in phases}
    cpus = {p: cpus[p] * 600 / windows[p] for p in phases}
    print(f"| process launches per 10 minutes (acct, uid {uid}) | {launches['polling']:.0f} | {launches['widgetd']:.0f} | {ratio(launches['polling'], launches['widgetd'])} |")
    print(f"| CPU seconds per 10 minutes, everything (/proc, own + reaped children) | {cpus['polling']:.2f} | {cpus['widgetd']:.2f} | {ratio(cpus['polling'], cpus['widgetd'])} |")
    for name in sorted(set(groups["polling"]) | set(groups["widgetd"])):
        a = groups["polling"].get(name, {"own": 0, "children": 0, "count": 0})
        b = groups["widgetd"].get(name, {"own": 0, "children": 0, "count": 0})
        print(f"| — {name} (×{a['count']} / ×{b['count']}): own + children | {a['own']:.2f} + {a['children']:.2f} | {b['own']:.2f} + {b['children']:.2f} | |")
    total = {p: [0, 0, 0] for p in phases}
    for (phase, module), row in fresh.items():
        for i in range(3):
            total[phase][i] += row[i]
    print(f"| samples right at that instant | {total['polling'][1]}/{total['polling'][0]} | {total['widgetd'][1]}/{total['widgetd'][0]} | |")
    print(f"| samples right within the minute | {total['polling'][2]}/{total['polling'][0]} | {total['widgetd'][2]}/{total['widgetd'][0]} | |")
    print()
    print("| module | polling interval | polling: right now / within a minute | widgetd: right now / within a minute |")
    print("|---|---:|---:|---:|")
    intervals = {"clock": 1, "date": 60, "weather": 600, "load": 10, "battery": 60, "calendar": 60, "quote": 3600, "uptime": 60, "memory": 30, "countdown": 60}
    for module in modules:
        a = fresh.get(("polling", module), [0, 0, 0])
        b = fresh.get(("widgetd", module), [0, 0, 0])
        print(f"| {module} | {intervals.get(module, '?')} s | {a[1]}/{a[0]} / {a[2]}/{a[0]} | {b[1]}/{b[0]} / {b[2]}/{b[0]} |")
    print()
    for phase in phases:
        top = sorted(commands[phase].items(), key=lambda kv: -kv[1][0])
        print(f"Launches by command, {phase}: " + ", ".join(f"{name} {n}" for name, (n, _) in top))
        print()
    for phase in phases:
        print(f"Machine load at the end of {phase}: `{loads[phase]}`")
        print()
    steps = [line.strip() for line in open(f"{out}/widgetd.log") if "wall clock stepped" in line]
    if steps:
        print("The wall clock was stepped during the run (by another program on the machine):")
        for step in steps:
            print(f"- {step}")
        print()
    if misses:
        print("Samples wrong by more than a minute:")
        for miss in misses:
            print(f"- {miss}")


if __name__ == "__main__":
    if sys.argv[1] == "--snapshot":
        snapshot(int(sys.argv[2]))
    else:
        report(sys.argv[1], int(sys.argv[2]), sys.argv[3].split())
