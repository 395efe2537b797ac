#!/usr/bin/env python3
"""Checks ACP exchanges against the protocol's JSON Schema (testdata/acp/schema): every request, notification
and response whose method the schema's x-method tables name is validated against that method's type (a
response by the request of the other side it answers). Run from testdata/acp:

    python3 ../../tools/acp-recorder/validate.py handwritten/*.exchange.jsonl claude-agent-acp/*/*.exchange.jsonl

Needs the Python package jsonschema (4.18 or newer, with referencing).
"""
import json, sys
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
def load(sf):
    s=json.load(open(sf)); defs=s['$defs']
    bymeth={}
    for name,d in defs.items():
        m=d.get('x-method')
        if m:
            kind='response' if name.endswith('Response') else ('request' if name.endswith('Request') else 'notification')
            bymeth[(m,kind)]=name
    return s,bymeth
def validator(s,name):
    sub={'$schema':s['$schema'],'$defs':s['$defs'],'$ref':'#/$defs/'+name}
    return Draft202012Validator(sub)
def check(sf, files):
    s,bymeth=load(sf); bad=0; n=0; cache={}
    for f in files:
        pending={}
        for i,l in enumerate(open(f),1):
            rec=json.loads(l); m=rec['msg']; d=rec.get('dir','out')
            if not isinstance(m,dict): continue
            if 'method' in m:
                kind='request' if 'id' in m else 'notification'
                if 'id' in m: pending[(d,json.dumps(m['id']))]=m['method']
                key=(m['method'],kind); inst=m.get('params')
            elif 'result' in m:
                od='in' if d=='out' else 'out'
                meth=pending.pop((od,json.dumps(m['id'])),None)
                key=(meth,'response'); inst=m['result']
            else: continue
            name=bymeth.get(key)
            if not name: continue
            n+=1
            v=cache.get(name) or cache.setdefault(name,validator(s,name))
            errs=list(v.iter_errors(inst))
            if errs:
                bad+=1; print(' ',f,i,name,errs[0].message[:200])
    print(sf,n,'checked',bad,'invalid')
files=sys.argv[1:]
for sf in ['schema/v1.schema.json','schema/v1.schema.unstable.json']:
    check(sf,files)
