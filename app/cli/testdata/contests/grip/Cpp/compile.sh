g++ --std=c++11 *.cc
