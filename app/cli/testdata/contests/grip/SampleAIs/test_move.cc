// Test data: another C++ test program with its own main.
#include <iostream>

int main(int argc, char **argv) {
    std::cout << "move test ok" << std::endl;
    return 0;
}
