// Test data: the shape of a Grip C++ sample: one file, says READY, then
// stays put.
#include <iostream>
#include <string>

int main() {
    std::ios::sync_with_stdio(false);
    std::cout << "READY" << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line == "EOD" || line == "EOD\r") {
            std::cout << "N" << std::endl;
        }
    }
    return 0;
}
