// cqld.yaml: the configuration file of `cqld --config FILE`.
//
// The file is YAML. Its keys are cassandra.yaml's where cqld has the concept (cluster_name,
// native_transport_port, rpc_address, data_file_directories, commitlog_sync, authenticator,
// authorizer, client_encryption_options, audit_logging_options, ...: `CassandraYamlKeys()` lists
// them with the setting each stands for), or cqld's own settings, named as its long flags without
// the dashes
// (`min-free-space-mb: 512`, `log-file: /var/log/cqld/cqld.log`). Every other key is an error
// that names it and its line: a setting cqld would silently ignore is a setting someone
// believes is in force.
//
// The file is read into the same key -> text map the command line fills, and never overrides
// what the command line set: flags win. Switches (`tls-optional`) read YAML booleans and become
// "true"/"false". A key whose value is empty (`authorizer:`) is left unset, as Cassandra does.
// Cassandra 4.1's unit-suffixed names are accepted beside the 4.0 ones where cqld has the
// setting (`batch_size_warn_threshold: 5KiB` as `batch_size_warn_threshold_in_kb: 5`).
//
// Thread-safety: free functions.

#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace server {

// cqld's settings: setting name (a long flag without dashes) -> value text.
using Settings = std::map<std::string, std::string>;

// A cassandra.yaml key cqld reads and the setting it stands for.
struct CassandraYamlKey {
  const char* yaml_key;  // dotted for nested maps: client_encryption_options.enabled
  const char* setting;
  // How the value converts: kText as is, kList the one element of a sequence, kKib/kMib/kMs a
  // number in that unit (4.1's unit-suffixed forms converted), kSwitch a boolean, kClassName a
  // class name or 4.1's list of one `class_name: NAME` map.
  enum class Kind { kText, kList, kSwitch, kKib, kMib, kMs, kConnections, kClassName } kind;
};
const std::vector<CassandraYamlKey>& CassandraYamlKeys();

// Reads the YAML file `path` into `settings`, keeping the values already there. `is_setting`
// says whether a key is one of cqld's own settings, `is_switch` whether that setting is a
// boolean switch. Returns "" or an error message ("FILE:LINE: unknown key 'num_tokens'").
std::string ReadConfigFile(const std::string& path,
                           const std::function<bool(const std::string&)>& is_setting,
                           const std::function<bool(const std::string&)>& is_switch,
                           Settings* settings);

}  // namespace server
