// The functions are inline in the header; SwiftPM wants one source file per C target.
#include "CMallocInfo.h"
