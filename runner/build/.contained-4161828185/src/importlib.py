print('STUDENT-CODE-RAN', flush=True)
open("/work/main/runner/build/.contained-4161828185/RAN", 'w').write('ran')
open('RAN-HERE', 'w').write('ran')
