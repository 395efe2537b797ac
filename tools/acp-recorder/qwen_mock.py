#!/usr/bin/env python3
"""The capture lab's OpenAI Chat Completions mock (pi/mock.py) playing this folder's Qwen Code tool scenarios
(qwen_scenarios.py) instead of the lab's Pi scripts. usage: qwen_mock.py PORT SCENARIO SET REQUEST_LOG"""
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import qwen_scenarios  # noqa: E402

sys.modules["scenarios"] = qwen_scenarios  # pi/mock.py imports "scenarios": it gets these
runpy.run_path(os.path.join(os.environ["CAPTURELAB_DIR"], "pi", "mock.py"), run_name="__main__")
