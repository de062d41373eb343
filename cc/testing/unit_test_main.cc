// main() of every test built on cc/testing: runs the registered TESTs.
#include "cc/testing/unit_test.h"

int main() { return ethosu_sdk::testing::RunAllTests(); }
