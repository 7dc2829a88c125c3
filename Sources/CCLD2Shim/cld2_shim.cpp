#include "cld2_shim.h"
