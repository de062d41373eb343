// Exits with a status no other path produces, so the test proves the status
// travels from main() through semihosting and QEMU to the host.
int main() { return 42; }
