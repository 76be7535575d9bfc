#include <stdio.h>
#include <string.h>

/* A Grip bot that always answers N. */
int main(void) {
    char line[4096];
    printf("READY\n");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "EOD", 3) == 0) {
            printf("N\n");
            fflush(stdout);
        }
    }
    return 0;
}
