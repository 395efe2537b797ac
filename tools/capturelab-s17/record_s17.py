#!/usr/bin/env python3
"""Records the s17-interrupt scenario (the user interrupts a turn while a long command runs) with the real
Claude Code, Codex, OpenCode and Pi CLIs, offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-s17/record_s17.py AGENT [--out DIR] [--sets main,v2] [NAME...]

AGENT is claude, codex, opencode or pi. DIR defaults to testdata/crosscheck/<agent>/<version>/ of this repository; NAMEs
limit the run (claude: s17-interrupt, s17-interrupt-nopartial). The lab's scripts run from a staged copy
in which this folder's files take the place of the lab's:
  claude: claude_scenarios.py -> claude/scenarios.py, driver_s17.py -> claude/driver.py, and two lines of
          claude/capture.py changed (PATCH_CLAUDE below): s17-interrupt runs in stream-json input mode
          (like the lab's -stdin variants) with the driver's policy `interrupt`.
  codex:  codex_scenarios.py -> codex/scenarios.py, codex_expectations.py -> codex/expectations.py,
          and codex/appserver_client.py changed (PATCH_CODEX below: the first turn is interrupted);
          only the app-server mode is recorded (`codex exec` has no way to interrupt a turn but a
          signal, which ends the process, so no second prompt).
  opencode: opencode_scenarios.py -> opencode/scenarios.py, and one block added to opencode/capture.py
          (PATCH_OPENCODE below): POST /session/<id>/abort once the bash part runs; serve mode only.
  pi:     pi_scenarios.py -> pi/scenarios.py, pi_interrupt_ext.ts -> pi/interrupt_ext.ts, and pi/capture.py
          changed (PATCH_PI below): in rpc mode the abort command goes abort_delay_s after
          tool_execution_start, with pi's output read meanwhile; in json mode (print mode, which reads no
          commands and ends at SIGTERM, SIGHUP or SIGINT) pi runs with the extension interrupt_ext.ts (-e),
          which aborts the turn on SIGUSR2, and the driver sends SIGUSR2 abort_delay_s after
          tool_execution_start appears in stdout. Pi is the install pi-$PI_VERSION (default 1.6.0, the s12
          set's) of AGENTS_DIR.
Every agent process runs through the lab's <agent>/run.sh, i.e. inside common/sandbox.sh: a new network
namespace whose only link is loopback, with a private tmpfs on /home/dev, against the lab's mock on
127.0.0.1. Nothing the agent runs can reach anything else.

What is kept, named as in testdata/crosscheck (see testdata/SOURCES.md):
  claude: NAME.jsonl (stdout), NAME.exchange.jsonl (both directions), NAME.transcript.jsonl, NAME.meta.json
  codex:  NAME.appserver.jsonl, NAME.appserver.exchange.jsonl,
          NAME.appserver.rollout-<last 8 hex of the thread id>.jsonl, NAME.meta.json
  opencode: NAME.sse, NAME.global.sse, NAME.messages.json, NAME.meta.json
  pi:     NAME.json.jsonl, NAME.rpc.jsonl, NAME.rpc.exchange.jsonl, NAME.<format>.session.jsonl (the session
          file of each run), NAME.meta.json
The meta file is the lab's, with the scenario's `expect_extra` merged into its `expect` block.
With KEEP=DIR everything the lab wrote is kept under DIR as well (stderr, mock requests, session folders).
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'capturelab-common'))
import labstage  # noqa: E402  (staging, the main loop, the copy and merge steps the recorders share)

PI_VERSION = os.environ.get('PI_VERSION', '1.6.0')
AGENT_NAMES = ('claude', 'codex', 'opencode', 'pi')
SWAP = {'claude': {'claude_scenarios.py': 'scenarios.py', 'driver_s17.py': 'driver.py'},
        'codex': {'codex_scenarios.py': 'scenarios.py', 'codex_expectations.py': 'expectations.py'},
        'opencode': {'opencode_scenarios.py': 'scenarios.py'},
        'pi': {'pi_scenarios.py': 'scenarios.py', 'pi_interrupt_ext.ts': 'interrupt_ext.ts'}}
# (file, old, new): each old text must occur exactly once in the lab's file
PATCH_CLAUDE = [
    ('capture.py', 'stdin_mode = VARIANT.startswith("-stdin") or VARIANT.startswith("-stdio")',
     'stdin_mode = VARIANT.startswith("-stdin") or VARIANT.startswith("-stdio") or BASE == "s17-interrupt"'),
    ('capture.py', '    policy = "deny" if VARIANT.startswith("-stdio-deny") else "allow"\n',
     '    policy = "deny" if VARIANT.startswith("-stdio-deny") else "allow"\n'
     '    if BASE == "s17-interrupt":\n        policy = "interrupt"\n'),
]
# The lab's app-server client with its first turn interrupted (its docstring, patched too, says how); run.sh is
# used unchanged, in its appserver mode.
PATCH_CODEX = [
    ('appserver_client.py', '''"""Drive `codex app-server` (JSON-RPC over stdio, one JSON object per line).
''', '''"""Drive `codex app-server` (JSON-RPC over stdio, one JSON object per line): the capture lab's
codex/appserver_client.py with one addition for the s17-interrupt scenario (record_s17.py stages it in its
place): the first turn is interrupted. After turn/start of prompt 1 the client waits for the item/started
of a commandExecution, gives the command INTERRUPT_AFTER seconds (2.5) to run, sends
  {"method": "turn/interrupt", "params": {"threadId": ..., "turnId": ...}}
and waits for that turn's turn/completed as usual; the next prompts are not interrupted.
'''),
    ('appserver_client.py', '''lab.require_private_netns()  # never start the agent outside the private network namespace
''', '''lab.require_private_netns()  # never start the agent outside the private network namespace

INTERRUPT_AFTER = 2.5
'''),
    ('appserver_client.py', '''            turn_id = resp["result"]["turn"]["id"]
''', '''            turn_id = resp["result"]["turn"]["id"]
            if not status["turns"]:
                started = pump(lambda m: m.get("method") == "item/started"
                               and (m["params"].get("item") or {}).get("type") == "commandExecution", args.turn_timeout)
                if isinstance(started, dict):
                    time.sleep(INTERRUPT_AFTER)
                    ir = request("turn/interrupt", {"threadId": thread_id, "turnId": turn_id})
                    status["interrupt"] = {"request_id": ir, "after_item": started["params"]["item"].get("id")}
                else:
                    print("no commandExecution started; not interrupting:", started, file=sys.stderr)
'''),
]
PATCH_OPENCODE = [
    ('capture.py', '''            while th.is_alive() and time.time() - t0 < 240:
''', '''            while th.is_alive() and time.time() - t0 < 240:
                # s17-interrupt (tools/capturelab-s17): abort the first prompt's turn once its tool part runs
                if spec.get("interrupt_first") and prompt == spec["prompts"][0] and "abort" not in info \\
                        and '"status":"running"' in read_text(sse_path):
                    time.sleep(2.5)
                    st_a, raw_a = http("POST", f"/session/{sid}/abort", {}, timeout=10)
                    info["abort"] = {"status": st_a, "response": raw_a.decode("utf-8", "replace")}
'''),
]
# The lab's rpc driver sends the abort at the abort_on event itself; s17-interrupt waits abort_delay_s after
# it (the command has run a while), reading pi's output meanwhile so the exchange keeps its order. In json
# mode the lab runs pi to its end; s17-interrupt adds the scenario's json_args (the extension) and, once the
# spec's json_signal event is in stdout, waits abort_delay_s and sends the signal.
PATCH_PI = [
    ('capture.py', '''# ----------------------------------------------------------------------------- json
def run_json(spec, out_path, err_path):
    if not spec.get("continue_runs"):
        argv = [PI, "--mode", "json", "-p"] + base_argv(spec)[1:] + spec["prompts"]
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            p = subprocess.run(argv, cwd=WORK, env=ENV, stdin=subprocess.DEVNULL, stdout=out, stderr=err, timeout=180)
        return argv, [p.returncode], None
''', '''# ----------------------------------------------------------------------------- json
def signal_after(p, out_path, spec):
    """s17-interrupt (tools/capturelab-s17): once stdout holds the spec's json_signal event, wait abort_delay_s
    and send its signal to pi; what was sent and when, for the meta."""
    import signal
    event, name = spec["json_signal"]
    needle = ('"type":"%s"' % event).encode()
    t0 = time.time()
    while p.poll() is None and time.time() - t0 < 120:
        with open(out_path, "rb") as f:
            if needle in f.read():
                break
        time.sleep(0.05)
    else:
        return {"signal": None, "note": f"{event} not seen"}
    seen = time.time() - t0
    time.sleep(spec.get("abort_delay_s", 0))
    if p.poll() is not None:
        return {"signal": None, "note": "pi ended first"}
    p.send_signal(getattr(signal, name))
    return {"signal": name, "after_event": event, "event_seen_s": round(seen, 2), "sent_s": round(time.time() - t0, 2)}


def run_json(spec, out_path, err_path):
    if not spec.get("continue_runs"):
        argv = [PI, "--mode", "json", "-p"] + base_argv(spec)[1:] + spec.get("json_args", []) + spec["prompts"]
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            p = subprocess.Popen(argv, cwd=WORK, env=ENV, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            sent = signal_after(p, out_path, spec) if spec.get("json_signal") else None
            try:
                rc = p.wait(timeout=180)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
        return argv, [rc], sent and {"interrupt": sent}
'''),
    ('capture.py', '''        ended, text_deltas, aborted, sent_mid = False, 0, False, False
''', '''        ended, text_deltas, aborted, sent_mid = False, 0, False, False
        abort_at = None  # s17-interrupt (tools/capturelab-s17): when the delayed abort is due
'''),
    ('capture.py', '''            ev = self.next(quiet if ended else 5)
''', '''            if abort_at is not None and not aborted and time.time() >= abort_at:
                aborted = True
                self.send({"id": "abort-1", "type": "abort"})
            wait = quiet if ended else 5
            ev = self.next(wait if abort_at is None or aborted else max(0.01, min(wait, abort_at - time.time())))
'''),
    ('capture.py', '''            if abort_on and t == abort_on and not aborted:
                aborted = True
                self.send({"id": "abort-1", "type": "abort"})
''', '''            if abort_on and t == abort_on and not aborted and abort_at is None:
                abort_at = time.time() + spec.get("abort_delay_s", 0)
'''),
]
PATCHES = {'claude': PATCH_CLAUDE, 'codex': PATCH_CODEX, 'opencode': PATCH_OPENCODE, 'pi': PATCH_PI}
BY = 'tools/capturelab-s17/record_s17.py'


def version(agent):
    return labstage.package_version(agent, 'pi-' + PI_VERSION if agent == 'pi' else None)


def keep_claude(src, dest, name, extra):
    labstage.keep_claude(src, dest, name, extra, BY, suffixes=('.jsonl', '.exchange.jsonl', '.meta.json'))


def keep_codex(src, dest, name, extra):
    labstage.keep_codex(src, dest, name, extra, BY, modes=('appserver',))
    print(labstage.codex_lines(dest, name, ('appserver',)))


def keep_opencode(src, dest, name, extra):
    labstage.copy_capture(src, dest, name, ('.sse', '.global.sse', '.messages.json', '.meta.json'))
    serve = labstage.merged_meta(dest, name, extra, BY)['captures']['serve']
    print('%s: prompt http=%s, abort=%s' % (name, serve['prompt_http_status'], serve.get('abort')))


def main():
    agent, ver, dest, sets, only = labstage.parse_args(sys.argv[1:], __doc__, AGENT_NAMES, version)
    lab = labstage.stage(agent, 'capturelab-s17-', HERE, SWAP[agent], PATCHES[agent])
    # the json run's -e names the extension in the staged copy, which is gone: name this folder's file
    ext = (os.path.join(lab, 'pi', 'interrupt_ext.ts'), 'tools/capturelab-s17/pi_interrupt_ext.ts')
    keep_pi = lambda src, dest, name, extra: labstage.keep_pi(src, dest, name, extra, BY, meta_replace=ext)
    # opencode/run.sh ends with the lab's verify.py, which knows no interrupted turn: its report is printed,
    # the capture is kept and read.
    labstage.record(agent, ver, lab, dest, sets, only, 'capturelab-s17-out-',
                    {'claude': keep_claude, 'codex': keep_codex, 'opencode': keep_opencode, 'pi': keep_pi},
                    modes={'opencode': ['serve'], 'codex': ['appserver']}, pi_version=PI_VERSION)


if __name__ == '__main__':
    main()
