/* "gcc *.c" reads options from opts.c for this file's name */
