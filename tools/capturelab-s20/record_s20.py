#!/usr/bin/env python3
"""Records the s20-image scenario (the prompt carries one small PNG, pixels.png, a 2x2 RGB picture; the scripted
model answers with text naming what is in it: the mock scripts, it does not look) with the real agent CLIs,
offline, through the capture lab.

Usage (as root, see README.md):
  CAPTURELAB=/path/to/capturelab AGENTS_DIR=/path/to/agents \
    tools/capturelab-s20/record_s20.py AGENT [--out DIR] [--sets main,v2] [NAME...]

AGENT is claude, codex, opencode or pi (1.5.2, from AGENTS_DIR/pi-1.5.2). DIR defaults to
testdata/crosscheck/<agent>/<version>/ of this repository. The lab's scripts run from a staged copy
(tools/capturelab-common/labstage.py) in which this folder's files take the place of the lab's, pixels.png
beside them:
  claude:   claude_scenarios.py -> claude/scenarios.py; claude/capture.py (PATCH_CLAUDE) runs s20-image as the
            lab's -stdin variants (stream-json on stdin through driver.py, partial messages) and passes the
            scenario's image to driver.py, which (patched: --image FILE) sends the user message's content as an
            image block (base64, media type image/png) then the prompt's text block.
Every agent process runs through the lab's <agent>/run.sh, i.e. inside common/sandbox.sh: a new network
namespace whose only link is loopback, with a private tmpfs on /home/dev, against the lab's mock on
127.0.0.1.

What is kept, named as in testdata/crosscheck (see testdata/SOURCES.md):
  claude:   NAME.jsonl (stdout), NAME.exchange.jsonl (both directions, the image message included),
            NAME.transcript.jsonl, NAME.meta.json.
The meta file is the lab's, with the scenario's `expect_extra` merged into its `expect` block.
With KEEP=DIR everything the lab wrote is kept under DIR as well (stderr, mock requests, session folders).
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, '..', 'capturelab-common'))
import labstage  # noqa: E402  (staging, the main loop, the copy and merge steps the recorders share)

PI_VERSION = '1.5.2'
INSTALL = {'pi': 'pi-' + PI_VERSION}  # the agent's folder in AGENTS_DIR, where it is not the agent's name
AGENT_NAMES = ('claude', 'codex', 'opencode', 'pi')
SWAP = {'claude': {'claude_scenarios.py': 'scenarios.py', 'pixels.png': 'pixels.png'},
        'codex': {'codex_scenarios.py': 'scenarios.py', 'codex_expectations.py': 'expectations.py',
                  'pixels.png': 'pixels.png'},
        'opencode': {'opencode_scenarios.py': 'scenarios.py', 'pixels.png': 'pixels.png'},
        'pi': {'pi_scenarios.py': 'scenarios.py', 'pixels.png': 'pixels.png'}}
# (file, old, new): each old text must occur exactly once in the lab's file
PATCH_CLAUDE = [
    ('capture.py', '''stdin_mode = VARIANT.startswith("-stdin") or VARIANT.startswith("-stdio")
''', '''stdin_mode = VARIANT.startswith("-stdin") or VARIANT.startswith("-stdio") or BASE == "s20-image"  # s20 (tools/capturelab-s20)
'''),
    ('capture.py', '''json.dumps(prompts), policy, "--",''',
     '''json.dumps(prompts), policy,
             *(["--image", os.path.join(HERE, SPEC["image"])] if SPEC.get("image") else []), "--",'''),
    ('driver.py', '''def user_msg(text):
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None,
''', '''IMAGE = opts[opts.index("--image") + 1] if "--image" in opts else None  # s20-image (tools/capturelab-s20)


def user_msg(text):
    if IMAGE:  # s20-image: an image block (base64 PNG), then the prompt's text block
        import base64
        data = base64.b64encode(open(IMAGE, "rb").read()).decode()
        text = [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}},
                {"type": "text", "text": text}]
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None,
'''),
]
PATCH_CODEX = [
    ('run.sh', '''  local p0; p0=$(prompt 0)
''', '''  if [[ $SCEN == s20-* ]]; then  # s20-image (tools/capturelab-s20): the picture, in the work dir
    cp "$HERE/pixels.png" "$WORK/pixels.png"; flags+=(--image="$WORK/pixels.png")
  fi
  local p0; p0=$(prompt 0)
'''),
    ('run.sh', '''  for ((i = 0; i < n; i++)); do pargs+=(--prompt "$(prompt $i)"); done
''', '''  for ((i = 0; i < n; i++)); do pargs+=(--prompt "$(prompt $i)"); done
  if [[ $SCEN == s20-* ]]; then  # s20-image (tools/capturelab-s20): turn/start's input has the picture first
    cp "$HERE/pixels.png" "$WORK/pixels.png"; pargs+=(--image "$WORK/pixels.png")
  fi
'''),
    ('appserver_client.py', '''ap.add_argument("--grace"''', '''ap.add_argument("--image", help="s20-image: a localImage input item before the text")
ap.add_argument("--grace"'''),
    ('appserver_client.py', '''"input": [{"type": "text", "text": p, "text_elements": []}]})''',
     '''"input": ([{"type": "localImage", "path": args.image}] if args.image else [])  # s20-image
                                                             + [{"type": "text", "text": p, "text_elements": []}]})'''),
    # the mock picks the scenario by the user message's text: Codex wraps a local image in <image> tags
    ('mock_responses.py', '''    return "".join(c.get("text", "") for c in content or [] if isinstance(c, dict))
''', '''    return "".join(c.get("text", "") for c in content or [] if isinstance(c, dict)
                   and not c.get("text", "").startswith(("<image", "</image")))  # s20-image (tools/capturelab-s20)
'''),
]
PATCH_OPENCODE = [
    ('capture.py', '''    cfg = config(spec)
    with open(f"{HOME}/.config/opencode/opencode.json", "w") as f:
''', '''    if spec.get("image"):  # s20-image (tools/capturelab-s20): the picture, in the work dir
        shutil.copy(os.path.join(HERE, spec["image"]), os.path.join(WORK, spec["image"]))
    cfg = config(spec)
    with open(f"{HOME}/.config/opencode/opencode.json", "w") as f:
'''),
    ('capture.py', '''            cmd += prompt.split(" ")
''', '''            cmd += prompt.split(" ")
            if spec.get("image"):  # s20-image (tools/capturelab-s20): -f FILE, after the prompt's words
                cmd += ["-f", spec["image"]]
'''),
    ('capture.py', '''                                                     {"parts": [{"type": "text", "text": prompt}]}, timeout=240)
''', '''                                                     {"parts": image_parts(spec) + [{"type": "text", "text": prompt}]}, timeout=240)
'''),
    ('capture.py', '''def capture_serve(scen, set_name, spec, outdir, name):
''', '''def image_parts(spec):
    """s20-image (tools/capturelab-s20): a file part with the picture as a data: URL, as a pasted one."""
    if not spec.get("image"):
        return []
    import base64
    data = base64.b64encode(open(os.path.join(HERE, spec["image"]), "rb").read()).decode()
    return [{"type": "file", "mime": "image/png", "filename": spec["image"], "url": "data:image/png;base64," + data}]


def capture_serve(scen, set_name, spec, outdir, name):
'''),
]
PATCH_PI = [
    ('capture.py', '''        argv = [PI, "--mode", "json", "-p"] + base_argv(spec)[1:] + spec["prompts"]
''', '''        if spec.get("image"):  # s20-image (tools/capturelab-s20): the picture, in the work dir, as @FILE
            shutil.copy(os.path.join(HERE, spec["image"]), os.path.join(WORK, spec["image"]))
        argv = [PI, "--mode", "json", "-p"] + base_argv(spec)[1:] + (["@" + spec["image"]] if spec.get("image") else []) + spec["prompts"]
'''),
    ('capture.py', '''        d.send({"id": f"prompt-{i + 1}", "type": "prompt", "message": prompt})
''', '''        img = {}
        if spec.get("image"):  # s20-image (tools/capturelab-s20): the prompt command's images
            import base64
            img = {"images": [{"type": "image", "mimeType": "image/png",
                               "data": base64.b64encode(open(os.path.join(HERE, spec["image"]), "rb").read()).decode()}]}
        d.send({"id": f"prompt-{i + 1}", "type": "prompt", "message": prompt, **img})
'''),
]
PATCHES = {'claude': PATCH_CLAUDE, 'codex': PATCH_CODEX, 'opencode': PATCH_OPENCODE, 'pi': PATCH_PI}
MODES = {}
BY = 'tools/capturelab-s20/record_s20.py'


def version(agent):
    return labstage.package_version(agent, INSTALL.get(agent))


def keep_claude(src, dest, name, spec, scen):
    labstage.keep_claude(src, dest, name, spec.get('expect_extra'), BY, suffixes=('.jsonl', '.exchange.jsonl', '.meta.json'),
                         strict=True)


def keep_codex(src, dest, name, spec, scen):
    labstage.keep_codex(src, dest, name, spec.get('expect_extra'), BY)
    print(labstage.codex_lines(dest, name, ('exec', 'appserver')))


def keep_opencode(src, dest, name, spec, scen):
    labstage.copy_capture(src, dest, name, ('.sse', '.global.sse', '.run.jsonl', '.messages.json', '.meta.json'))
    meta = labstage.merged_meta(dest, name, spec.get('expect_extra'), BY)
    print('%s: run exit=%s, prompt http=%s' % (name, meta['captures']['run']['exit_codes'],
                                              meta['captures']['serve']['prompt_http_status']))


def keep_pi(src, dest, name, spec, scen):
    labstage.keep_pi(src, dest, name, spec.get('expect_extra'), BY)


def main():
    agent, ver, dest, sets, only = labstage.parse_args(sys.argv[1:], __doc__, AGENT_NAMES, version)
    lab = labstage.stage(agent, 'capturelab-s20-', HERE, SWAP[agent], PATCHES[agent])
    labstage.record(agent, ver, lab, dest, sets, only, 'capturelab-s20-out-',
                    {'claude': keep_claude, 'codex': keep_codex, 'opencode': keep_opencode, 'pi': keep_pi},
                    modes=MODES, pi_version=ver, nice=True, check=True, spec=True)


if __name__ == '__main__':
    main()
