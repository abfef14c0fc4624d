// Renders a Report as GitHub Actions workflow commands, so that a job's log annotates the pull
// request's diff without any upload step: `::error file=…,line=…,title=…::message` per finding
// (mismatch -> error, changed -> warning naming the archs to run, pre-existing mismatch ->
// notice; inert and outside rows are not findings), then one notice with the verdict line.
#pragma once

#include <string>
#include <string_view>

#include "model/Report.h"

namespace impact {

// GitHub's escaping (actions/toolkit, command.ts): a message escapes %, \r and \n; a property
// value escapes those and : and , as well.
std::string githubEscapeData(std::string_view s);
std::string githubEscapeProperty(std::string_view s);

std::string renderGithub(const Report& r);

}  // namespace impact
