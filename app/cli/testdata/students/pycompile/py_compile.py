# Named like the standard module: "python3 -m py_compile" run in this
# folder would run this file instead of checking the syntax.
import os
for p in ('/tmp/ringside-e2e-pwned-pycompile', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'pwned-pycompile')):
    try:
        with open(p, 'w') as f:
            f.write('py_compile.py ran\n')
    except OSError:
        pass
