/* Thread-locals a compiler reaches differently: defined and initialised,
   defined zero, and defined in another object (tls_def.c). */
__thread int counter = 1;
__thread char buf[16];
extern __thread long shared;

int main(int argc, char **argv) {
  counter += argc;
  buf[argc & 15] = (char)argc;
  return counter + (int)shared + buf[0];
}
