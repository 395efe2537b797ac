"""labstage: what the repository's capture-lab recorders share (stdlib Python).

The recorders (tools/capturelab-s12/record_s12.py, tools/capturelab-s17/record_s17.py,
tools/capturelab-s18/record_s18.py, tools/capturelab-s19/record_s19.py) record real agents through the shared capture lab ($CAPTURELAB,
default /work/shared/tools/capturelab), in its sandbox, each from a staged copy of the lab with its own
files in place of the lab's. They import this module with
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'capturelab-common'))
(after sys.dont_write_bytecode = True, so nothing is written beside it) and keep only what is their own:
which files they swap in, their patches, which files of a capture they keep and what they print.
tools/capturelab-amp-versions/record_versions.py uses its --out/--sets reading. It runs in the recorder,
outside the sandbox: nothing of this folder is staged into the lab's copy.

Offers:
  LAB, AGENTS, REPO, PKG       the lab, its agents' installs ($AGENTS_DIR), this repository, the npm packages
  package_version(agent, install)   the installed version (AGENTS/<install>/node_modules/<package>)
  stage(agent, prefix, here, swap, patches)   a writable temporary copy of the lab's common/ and <agent>/,
                               the recorder's files in place of the lab's, each patch checked to apply once
  parse_args(argv, doc, agents, version)      AGENT [--out DIR] [--sets main,v2] [NAME...]
  out_and_sets(args, dest, sets)              just the leading [--out DIR] [--sets a,b]
  record(...)                  every scenario of the sets through the staged <agent>/run.sh (run.sh mode
                               arguments per agent or per scenario, under nice), each capture handed to the
                               recorder's keep function (the expect_extra, or the whole scenario),
                               KEEP=DIR honoured, temp dirs removed
  scenario_spec                a scenario of a scenario file (the lab's form), as record reads it
  copy_capture, copy_rollouts, copy_transcripts, copy_pi_sessions, one   a capture's files under the
                               repository's names (NAME.<suffix>, NAME.<mode>.rollout-<8 hex>.jsonl, ...),
                               where one file is wanted exactly one
  merge_expect, merged_meta, write_json       a scenario's expect_extra merged into the meta's expect block
  keep_claude, keep_codex, keep_pi, codex_lines   the copy-merge-report steps of those agents' captures
"""
import glob, json, os, shutil, subprocess, sys, tempfile

LAB = os.environ.get('CAPTURELAB', '/work/shared/tools/capturelab')
AGENTS = os.environ.get('AGENTS_DIR') or os.path.join(LAB, 'agents')
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKG = {'claude': '@anthropic-ai/claude-code', 'codex': '@openai/codex', 'opencode': 'opencode-ai',
       'pi': '@earendil-works/pi-coding-agent', 'amp': '@ampcode/cli-linux-x64'}
WORK = '/home/dev/project'  # the agents' working directory inside the sandbox


def package_version(agent, install=None):
    """The version of AGENTS/<install, default agent>/node_modules/<agent's package>."""
    with open(os.path.join(AGENTS, install or agent, 'node_modules', PKG[agent], 'package.json')) as f:
        return json.load(f)['version']


def stage(agent, prefix, here, swap, patches=()):
    """A writable temporary copy of the lab's common/ and <agent>/ (without out, agents, __pycache__) in
    which each swap entry src -> name (src relative to here, or absolute) is copied to <agent>/name, then
    each patch (file in <agent>/, old, new) applied: old must occur exactly once in the lab's file."""
    d = tempfile.mkdtemp(prefix=prefix)
    for sub in ('common', agent):
        shutil.copytree(os.path.join(LAB, sub), os.path.join(d, sub),
                        ignore=shutil.ignore_patterns('out', 'agents', '__pycache__'))
    for src, dst in swap.items():
        shutil.copy(os.path.join(here, src), os.path.join(d, agent, dst))
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            os.chmod(p, os.stat(p).st_mode | 0o200)
    for fn, old, new in patches:
        p = os.path.join(d, agent, fn)
        s = open(p).read()
        if s.count(old) != 1:
            sys.exit('%s: the lab\'s %s changed: %r not found once' % (agent, fn, old))
        open(p, 'w').write(s.replace(old, new))
    return d


def parse_args(argv, doc, agents, version):
    """AGENT [--out DIR] [--sets main,v2] [NAME...] -> agent, its version, DIR (made; default
    testdata/crosscheck/<agent>/<version>/ of this repository), the sets, the NAMEs."""
    if not argv or argv[0] not in agents:
        sys.exit(doc)
    agent = argv[0]
    ver = version(agent)
    dest, sets, names = out_and_sets(argv[1:], os.path.join(REPO, 'testdata', 'crosscheck', agent, ver), ['main', 'v2'])
    os.makedirs(dest, exist_ok=True)
    return agent, ver, dest, sets, set(names)


def out_and_sets(args, dest, sets):
    """Leading --out DIR and --sets a,b of args (the defaults dest and sets) -> DIR, the sets, the rest."""
    while args[:1] in (['--out'], ['--sets']):
        if args[0] == '--out':
            dest = args[1]
        else:
            sets = args[1].split(',')
        args = args[2:]
    return dest, sets, args


def todo(agent, scenarios, s, modes, pi_version):
    """(scenario, run.sh arguments) of set s; modes: agent -> the run.sh mode arguments after the set (codex:
    all), a list or a function of the scenario."""
    m = modes.get(agent, ['all'] if agent == 'codex' else [])
    mode = m if callable(m) else (lambda c: m)
    if agent == 'claude':
        return [(c, [c, s] + mode(c)) for c in scenarios.CAPTURES]
    if agent == 'opencode':
        return [(c, [c, s] + mode(c)) for c in scenarios.SCENARIOS]
    if agent == 'pi':
        return [(c, ['-V', pi_version, c, s] + mode(c)) for c in scenarios.ALL]
    return [(c, [c, s] + mode(c)) for c in scenarios.SETS[s]]


def scenario_spec(agent, scenarios, s, scen, pi_version):
    """The scenario scen of set s (its dict: prompts, steps, expect, expect_extra, ...) from a scenario file in
    the lab's form (the staged copy, or the recorder's own)."""
    if agent == 'claude':
        base = scenarios.base_of(scen)
        return scenarios.scenarios(s, WORK, scen[len(base):])[base]
    if agent == 'codex':
        return scenarios.SETS[s][scen]
    if agent == 'opencode':
        return scenarios.scenarios(s, WORK)[scen]
    return scenarios.scenarios(s, pi_version)[scen]


def record(agent, ver, lab, dest, sets, only, out_prefix, keep, modes=None, pi_version=None,
           nice=False, check=None, spec=False):
    """Records each scenario of the sets (NAMEs in only, when given) through the staged lab's
    <agent>/run.sh (its OUT_DIR a temporary folder; under nice with nice) and hands each capture to
    keep[agent](src, dest, NAME, expect_extra), with spec keep[agent](src, dest, NAME, the scenario's dict,
    the scenario); NAME is the scenario, with -<set> after it but for main. With KEEP=DIR all the
    lab wrote is copied there too. The staged lab and the temporary folder are removed at the end.
    run.sh must succeed (check, by default) but opencode's (it ends with the lab's verify.py, which fails on
    any difference from the lab's own expectation: its report is printed, the capture is kept and read)."""
    out = tempfile.mkdtemp(prefix=out_prefix)
    keepdir = os.environ.get('KEEP')
    env = dict(os.environ, AGENTS_DIR=AGENTS, OUT_DIR=out)
    sys.path.insert(0, os.path.join(lab, agent))
    import scenarios  # the staged copy of the recorder's scenario file
    try:
        for s in sets:
            for scen, run_args in todo(agent, scenarios, s, modes or {}, pi_version):
                if only and scen not in only:
                    continue
                name = scen if s == 'main' else scen + '-' + s
                subprocess.run((['nice'] if nice else []) + [os.path.join(lab, agent, 'run.sh')] + run_args, env=env,
                               check=agent != 'opencode' if check is None else check,
                               stdout=subprocess.DEVNULL if agent == 'codex' else None)
                sp = scenario_spec(agent, scenarios, s, scen, pi_version)
                src = os.path.join(out, agent, ver)
                if spec:
                    keep[agent](src, dest, name, sp, scen)
                else:
                    keep[agent](src, dest, name, sp.get('expect_extra'))
        if keepdir:
            shutil.copytree(out, keepdir, dirs_exist_ok=True, symlinks=True)
    finally:
        shutil.rmtree(lab, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


def write_json(path, obj):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(json.dumps(obj, indent=1, ensure_ascii=False) + '\n')


def merge_expect(meta_path, extra, by):
    """Merge a scenario's expect_extra into the meta's expect block: top-level fields replace the lab's;
    a `tools` map (index of the lab's tools list -> fields) replaces those entries' fields, a `tools` list
    replaces the lab's. by (the recorder's path) is written as expect_extra_merged_by."""
    if not extra:
        return
    with open(meta_path, encoding='utf-8') as f:
        meta = json.load(f)
    e = meta['expect']
    for k, v in extra.items():
        if k == 'tools' and isinstance(v, dict):
            for i, fields in v.items():
                e['tools'][int(i)].update(fields)
        else:
            e[k] = v
    meta['expect_extra_merged_by'] = by + ' (the scenario\'s expect_extra)'
    write_json(meta_path, meta)


def merged_meta(dest, name, extra, by):
    """Merges expect_extra into dest/NAME.meta.json and returns the meta."""
    merge_expect(os.path.join(dest, name + '.meta.json'), extra, by)
    return json.load(open(os.path.join(dest, name + '.meta.json')))


def copy_capture(src, dest, name, suffixes, as_name=None):
    """src/NAME<suffix> of each suffix as dest/NAME<suffix> (as dest/AS_NAME<suffix> with as_name)."""
    for suffix in suffixes:
        shutil.copy(os.path.join(src, name + suffix), os.path.join(dest, (as_name or name) + suffix))


def one(pattern, name, what):
    """The one file that matches pattern (else exit: 'NAME: want one WHAT, found [...]')."""
    files = glob.glob(pattern)
    if len(files) != 1:
        sys.exit('%s: want one %s, found %s' % (name, what, files))
    return files[0]


def copy_rollouts(src, dest, name, mode, replace=True, one_what=None):
    """The session's rollout files of a codex mode as NAME.<mode>.rollout-<last 8 hex of the thread id>.jsonl
    (with one_what exactly one, what it is); with replace, an earlier recording's (another thread id) are
    removed first. Returns the session's rollout files."""
    for old in glob.glob(os.path.join(dest, '%s.%s.rollout-*.jsonl' % (name, mode))) if replace else ():
        os.remove(old)
    pattern = os.path.join(src, name + '.session', mode, 'rollout-*.jsonl')
    rs = [one(pattern, name, one_what)] if one_what else sorted(glob.glob(pattern))
    for r in rs:
        tid = os.path.basename(r)[:-len('.jsonl')].replace('-', '')[-8:]
        shutil.copy(r, os.path.join(dest, '%s.%s.rollout-%s.jsonl' % (name, mode, tid)))
    return rs


def copy_transcripts(src, dest, name, subagents=False, why=''):
    """Claude Code's session transcript as NAME.transcript.jsonl (exactly one; why: said after 'want one
    transcript' when not); with subagents, each sub-agent's as NAME.transcript.agent-<id>.jsonl."""
    main = one(os.path.join(src, name + '.session', '*', '*.jsonl'), name, 'transcript' + why)
    shutil.copy(main, os.path.join(dest, name + '.transcript.jsonl'))
    for a in sorted(glob.glob(os.path.join(src, name + '.session', '*', '*', 'subagents', 'agent-*.jsonl'))) if subagents else ():
        shutil.copy(a, os.path.join(dest, name + '.transcript.' + os.path.basename(a)))


def copy_pi_sessions(src, dest, name, fmts=('json', 'rpc'), what=None):
    """Pi's session file of each run (fmts) as NAME.<json|rpc>.session.jsonl (exactly one each; what: what is
    wanted, default '<fmt> session file')."""
    for fmt in fmts:
        f = one(os.path.join(src, name + '.session', fmt, '*', '*.jsonl'), name, what or fmt + ' session file')
        shutil.copy(f, os.path.join(dest, '%s.%s.session.jsonl' % (name, fmt)))


def keep_claude(src, dest, name, extra, by, suffixes=('.jsonl', '.meta.json'), subagents=False, strict=False, why=''):
    """Copies a Claude Code capture, merges expect_extra, prints its exit, lines and failed checks (strict: a
    check that is not true, else a check that is false)."""
    copy_capture(src, dest, name, suffixes)
    copy_transcripts(src, dest, name, subagents, why)
    meta = merged_meta(dest, name, extra, by)
    bad = {k: v for k, v in meta['checks'].items() if (v is not True if strict else v is False)}
    print('%s: exit=%s lines=%d failed checks=%s' % (name, meta['observed']['exit_codes'], meta['observed']['lines'],
                                                      bad or 'none'))


def keep_codex(src, dest, name, extra, by, modes=('exec', 'appserver'), replace=True):
    """Copies a Codex capture of the modes (NAME.<mode>.jsonl, the app-server's exchange, the rollouts) and
    merges expect_extra. Returns mode -> the session's rollout files."""
    suffixes = ['.%s.jsonl' % m for m in modes] + ['.appserver.exchange.jsonl'] * ('appserver' in modes)
    copy_capture(src, dest, name, suffixes + ['.meta.json'])
    rs = {mode: copy_rollouts(src, dest, name, mode, replace) for mode in modes}
    merge_expect(os.path.join(dest, name + '.meta.json'), extra, by)
    return rs


def codex_lines(dest, name, modes):
    """'NAME: exec N lines, appserver N lines' (the modes' NAME.<mode>.jsonl)."""
    return '%s: %s' % (name, ', '.join('%s %d lines' % (m, sum(1 for _ in open(os.path.join(dest, name + '.' + m + '.jsonl'))))
                                       for m in modes))


def keep_pi(src, dest, name, extra, by, meta_replace=None):
    """Copies a Pi capture (both runs and their session files), with meta_replace (old, new) replaced in its
    meta text, merges expect_extra and prints each run's exit and failed checks."""
    copy_capture(src, dest, name, ('.json.jsonl', '.rpc.jsonl', '.rpc.exchange.jsonl', '.meta.json'))
    if meta_replace:
        meta_path = os.path.join(dest, name + '.meta.json')
        text = open(meta_path, encoding='utf-8').read()
        open(meta_path, 'w', encoding='utf-8').write(text.replace(*meta_replace))
    copy_pi_sessions(src, dest, name)
    meta = merged_meta(dest, name, extra, by)
    print('%s: %s' % (name, ', '.join('%s exit=%s failed checks=%s' % (
        fmt, c['exit_codes'], [k for k, v in c['checks'].items() if not v] or 'none')
        for fmt, c in sorted(meta['captures'].items()))))
