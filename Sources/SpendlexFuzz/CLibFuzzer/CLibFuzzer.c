// Only a header: LLVMFuzzerRunDriver is defined in libclang_rt.fuzzer. A C target needs a source file.
#include "CLibFuzzer.h"
