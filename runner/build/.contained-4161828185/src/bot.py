print('READY')
