#!/usr/bin/env python3
"""write_meta_v2.py DEST NAME VERSION RC CMDLINE [RC2 CMDLINE2]: writes DEST/NAME.meta.json for one v2
capture: what was run, the host's prompts, the mock's script, the line types seen, and the expect
block of scenarios_v2.EXPECT (written from the script, not from the output)."""
import json, os, sys

sys.dont_write_bytecode = True  # nothing written beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenarios_v2  # noqa: E402

dest, name, version, rc, cmdline = sys.argv[1:6]
second = sys.argv[6:8]
cap = {c[0]: c for c in scenarios_v2.CAPTURES}[name]
_, scen, prompts, _, _ = cap


def line_types(path):
    out = []
    for l in open(path, encoding='utf-8'):
        if l.strip():
            o = json.loads(l)
            out.append(o.get('type', '?') + ('/' + o['subtype'] if 'subtype' in o else ''))
    return out


meta = {
    "agent": "amp",
    "package": "@sourcegraph/amp (alias of @ampcode/cli; native binary from @ampcode/cli-linux-x64)",
    "version": version,
    "set": "v2",
    "scenario": scen,
    "command": cmdline.strip(),
    "exit_code": int(rc),
    "prompts": prompts,
    "provenance": "real Amp CLI, run offline in a private network namespace (loopback only) against the "
                  "capture lab's mock_amp.py playing tools/capturelab-amp-v2/scenarios_v2.py, a scripted "
                  "imitation of the Amp server (HTTP API + thread-actor WebSocket). The CLI wrote every stdout "
                  "line; the assistant messages, usage numbers and errors are the mock's script (the model runs "
                  "server-side in real Amp); tool results are the CLI's own. The expect block is written from "
                  "the script.",
    "mock_script": scenarios_v2.SCENARIOS[scen],
    "observed": {"line_types": line_types(os.path.join(dest, name + '.jsonl'))},
    "expect": scenarios_v2.EXPECT[name],
}
if second:
    meta["command_2"] = second[1].strip()
    meta["exit_code_2"] = int(second[0])
    meta["observed"]["line_types_2"] = line_types(os.path.join(dest, name + '.2.jsonl'))
    meta["note"] = "two processes on one thread: NAME.jsonl, then NAME.2.jsonl (amp threads continue); the expect block covers both, read as one session"
with open(os.path.join(dest, name + '.meta.json'), 'w', encoding='utf-8') as f:
    json.dump(meta, f, indent=1, ensure_ascii=False)
    f.write('\n')
