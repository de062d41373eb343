// What Method's loader files share (method.cc, value_table.cc,
// instructions.cc): the plan's flatbuffer types and the checks every table
// makes. Private to cc/runtime.
#ifndef ETHOSU_SDK_CC_RUNTIME_METHOD_LOAD_H_
#define ETHOSU_SDK_CC_RUNTIME_METHOD_LOAD_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/span.h"
#include "cc/core/status.h"
#include "cc/runtime/value.h"
#include "schema/program_generated.h"

namespace ethosu_sdk::runtime::internal {

namespace fb = ::executorch_flatbuffer;
using IndexVector = flatbuffers::Vector<int32_t>;

// Method's headers keep the flatbuffer types out: a plan travels as void*.
inline const fb::ExecutionPlan* Plan(const void* plan) {
  return static_cast<const fb::ExecutionPlan*>(plan);
}

inline size_t VectorSize(const IndexVector* v) { return v == nullptr ? 0 : v->size(); }

// The runtime arena had no room for `what` of `count`.
Status OutOfMemory(const char* what, size_t count);

// values[index], or an error naming the method's value count.
Status ValueAt(Span<Value> values, int32_t index, Value** out);

}  // namespace ethosu_sdk::runtime::internal

#endif  // ETHOSU_SDK_CC_RUNTIME_METHOD_LOAD_H_
