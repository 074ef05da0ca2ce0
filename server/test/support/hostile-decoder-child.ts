// The decoder process as the server starts it, except that a file named *hostile* kills it: a stand-in
// for a file that crashes libvips, which the test data cannot hold (every such crash found is a bug
// fixed upstream). Static imports run in order, and neither listener can miss a message.
import './hostile-file-kills.js';
import '../../src/decoder-process/decoder-child.js';
