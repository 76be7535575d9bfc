// Test data: a C++ test program of its own, not part of the Java bot.
#include <cstdio>

int main() {
    std::puts("board test ok");
    return 0;
}
