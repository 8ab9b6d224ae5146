# _purecall and operator delete for shapes.cpp's COFF build: never reached,
# as no object is destroyed through a base pointer.
.text
.globl _purecall
_purecall: ud2
.globl "??3@YAXPEAX_K@Z"
"??3@YAXPEAX_K@Z": ud2
