// Test harness (llvm-jitlink -harness semantics): it holds the test driver
// (main) and a mock read_sensor. Harness definitions override the tested
// objects' (sensor.o's read_sensor), and the tested objects keep visible
// only what the harness references.
#include <stdio.h>

int heater_on(int channel);
int reading(int channel);

int read_sensor(int channel) {
  static const int readings[] = {15, 21, 18};
  return readings[channel % 3];
}

int main(void) {
  int failures = 0;
  for (int channel = 0; channel < 3; ++channel) {
    printf("channel %d: %d C, heater %s\n", channel, reading(channel), heater_on(channel) ? "on" : "off");
    failures += heater_on(channel) != (reading(channel) < 19);
  }
  return failures;
}
