/* The thread-local tls.c reads from another object. */
__thread long shared = 7;
