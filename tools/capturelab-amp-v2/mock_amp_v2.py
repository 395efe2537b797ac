#!/usr/bin/env python3
"""The capture lab's Amp server imitation (mock_amp.py) playing the v2 scenarios.

Usage: mock_amp_v2.py PORT LOGFILE [SCENARIO]   (as mock_amp.py)

record_v2.sh puts this file and scenarios_v2.py beside mock_amp.py in a staging copy of the lab's
amp/ folder, so that the lab's run.sh/inner.sh start it like its own mock. It loads mock_amp.py
unchanged, replaces its scenario table with scenarios_v2.SCENARIOS and serves on 127.0.0.1 only, as
mock_amp.py does.
"""
import importlib.util, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # nothing written beside the scripts
sys.path.insert(0, HERE)
import scenarios_v2  # noqa: E402

spec = importlib.util.spec_from_file_location('mock_amp', os.path.join(HERE, 'mock_amp.py'))
mock = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mock)  # reads PORT, LOGFILE, SCENARIO from sys.argv; starts nothing
mock.SCENARIOS.clear()
mock.SCENARIOS.update(scenarios_v2.SCENARIOS)
if mock.SCENARIO not in mock.SCENARIOS:
    sys.exit('mock_amp_v2: no v2 scenario %r' % mock.SCENARIO)

if __name__ == '__main__':
    mock.ThreadingHTTPServer.daemon_threads = True
    mock.ThreadingHTTPServer(('127.0.0.1', mock.PORT), mock.Handler).serve_forever()
