"""How a capture of the Amp scenario sets is run, shared by record_v2.py and tools/capturelab-amp-versions."""
import json, os, shutil


def amp_args(name, prompts, extra, runs, env):
    """Returns the amp arguments of a capture and fills in env: -x and the first prompt on the command
    line (a second prompt is the prompt of a second process, amp threads continue, in
    AMP_CONTINUE_PROMPT), or, when extra has AMP_STDIN, -x alone and every prompt written as a
    stream-json user line to runs/NAME.stdin.jsonl, the file run.sh feeds to stdin. The other keys
    of extra go into env as they are."""
    args = ['-x']
    for k, v in extra.items():
        if k == 'AMP_STDIN':
            p = os.path.join(runs, name + '.stdin.jsonl')
            with open(p, 'w', encoding='utf-8') as f:
                for text in prompts:
                    f.write(json.dumps({"type": "user", "message": {"role": "user", "content": [
                        {"type": "text", "text": text}]}}, ensure_ascii=False) + '\n')
            env['AMP_STDIN'] = p
        else:
            env[k] = v
    if 'AMP_STDIN' not in env:
        args.append(prompts[0])
        if len(prompts) > 1:
            env['AMP_CONTINUE_PROMPT'] = prompts[1]
    return args


def keep_outputs(o, dest, name, ver):
    """Copies a capture's stdout (and a second process's, for the continue captures) from run.sh's
    folder o to dest as NAME.jsonl and NAME.2.jsonl, and returns write_meta_v2.py's arguments."""
    read = lambda f: open(os.path.join(o, f)).read()
    shutil.copy(os.path.join(o, 'stdout.jsonl'), os.path.join(dest, name + '.jsonl'))
    meta_args = [dest, name, ver, read('rc.txt').strip(), read('cmdline.txt')]
    if os.path.exists(os.path.join(o, 'stdout2.jsonl')):
        shutil.copy(os.path.join(o, 'stdout2.jsonl'), os.path.join(dest, name + '.2.jsonl'))
        meta_args += [read('rc2.txt').strip(), read('cmdline2.txt')]
    return meta_args
