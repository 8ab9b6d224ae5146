// The program under test: decides whether to heat from a sensor reading.
// read_sensor() is hardware access (sensor.c); the harness mock replaces it.
#include <stdio.h>

int read_sensor(int channel);

static const char *decide(int celsius) { return celsius < 19 ? "on" : "off"; }

int main(void) {
  int failures = 0;
  for (int channel = 0; channel < 3; ++channel) {
    int t = read_sensor(channel);
    printf("channel %d: %d C, heater %s\n", channel, t, decide(t));
    failures += t < -40 || t > 85;
  }
  return failures;
}
