// The code under test: decides whether to heat from a sensor reading.
// read_sensor() is hardware access (sensor.c); the test harness replaces it.
int read_sensor(int channel);

int heater_on(int channel) { return read_sensor(channel) < 19; }
int reading(int channel) { return read_sensor(channel); }
