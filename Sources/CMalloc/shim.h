// glibc's allocator settings (mallopt), which Swift's Glibc module does not bring in. Empty
// elsewhere: macOS's allocator has no such knob.
#if defined(__linux__)
#include <malloc.h>
#endif
