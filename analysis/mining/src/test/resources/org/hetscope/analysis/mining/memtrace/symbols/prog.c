static int helper(int x) { return x * 3; }
int work(int x) { return helper(x) + 1; }
int main(int argc, char **argv) { return work(argc); }
