// The real driver: reads a memory-mapped sensor register. There is no such
// device in the emulator: only the harness mock makes the program testable.
int read_sensor(int channel) {
  volatile int *reg = (volatile int *)(0x40000000UL + 4UL * (unsigned)channel);
  return *reg;
}
