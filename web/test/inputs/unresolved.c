// Calls a function no object defines: linking must name it.
int missing_function(int);

int main(void) { return missing_function(1); }
