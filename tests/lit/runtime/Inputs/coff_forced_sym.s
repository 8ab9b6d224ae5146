.data
.globl forced_sym
forced_sym: .long 0
