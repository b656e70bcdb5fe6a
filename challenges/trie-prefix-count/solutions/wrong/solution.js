/**
 * @param {string[]} words
 * @param {string[]} prefixes
 * @return {number[]}
 */
function countPrefixes(words, prefixes) {
  const children = [new Map()]; // node 0 is the root; children[node].get(letter) is a node
  const passing = [0]; // passing[node]: how many words' paths pass through the node
  // Wrong on purpose: repeated words are counted once (a Set).
  for (const word of new Set(words)) {
    let node = 0;
    passing[0]++;
    for (const letter of word) {
      let child = children[node].get(letter);
      if (child === undefined) {
        child = children.length;
        children[node].set(letter, child);
        children.push(new Map());
        passing.push(0);
      }
      node = child;
      passing[node]++;
    }
  }
  return prefixes.map((prefix) => {
    let node = 0;
    for (const letter of prefix) {
      node = children[node].get(letter);
      if (node === undefined) return 0;
    }
    return passing[node];
  });
}
