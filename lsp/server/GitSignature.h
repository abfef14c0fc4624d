// What the git watch compares: the modification times of HEAD, the index, packed-refs and
// every loose ref. A commit, a checkout, a fetch or a staged change alters it.
#pragma once

#include <string>

namespace impact::server {

std::string gitSignatureOf(const std::string& gitdir);

}  // namespace impact::server
