import sys
# BOB-E2E-SOURCE-MARKER: bob's own honest Grip bot, always N.
print('READY', flush=True)
for line in sys.stdin:
    if line.strip() == 'EOD':
        print('N', flush=True)
