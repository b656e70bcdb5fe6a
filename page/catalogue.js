// The challenge list, grouped by topic (docs/challenges.md, "Topics"), and what the chosen
// challenge is about: its topic and its tags.

// Where a challenge without a topic is listed: after every topic, as `dsa-run challenges` does.
export const OTHER = "Other";

// One <optgroup> a topic, in the order the server lists its topics, "Other" last. A native select
// is kept: arrows, Home/End and type-ahead, the group's name read out by a screen reader, and a
// phone's own picker come with it, where a home-made list would have to rebuild each.
export function fillChallenges(select, challenges, topics) {
  const groups = new Map([...(topics || []), OTHER].map((topic) => [topic, []]));
  for (const challenge of challenges) {
    // A topic the list does not name (a server older than its catalogue) is still listed.
    groups.get(groups.has(challenge.topic) ? challenge.topic : OTHER).push(challenge);
  }
  select.textContent = "";
  for (const [topic, members] of groups) {
    if (!members.length) continue;
    const group = document.createElement("optgroup");
    group.label = topic;
    for (const challenge of members) {
      const option = document.createElement("option");
      option.value = challenge.id;
      option.textContent = challenge.title;
      // Tags on hover in the list; the chosen challenge's are shown beside it (showAbout).
      if (challenge.tags?.length) option.title = challenge.tags.join(", ");
      group.appendChild(option);
    }
    select.appendChild(group);
  }
}

// The chosen challenge's topic and tags, under the challenge select: the closed select shows only
// the title, and the tags say what the challenge practises before its statement is read.
export function showAbout(box, challenge) {
  box.textContent = "";
  if (!challenge) { box.hidden = true; return; }
  const topic = document.createElement("span");
  topic.className = "topic";
  topic.textContent = `Topic: ${challenge.topic || OTHER}`;
  box.appendChild(topic);
  if (challenge.tags?.length) {
    const list = document.createElement("ul");
    list.className = "tags";
    list.setAttribute("aria-label", "Tags");
    for (const tag of challenge.tags) {
      const item = document.createElement("li");
      item.textContent = tag;
      list.appendChild(item);
    }
    box.appendChild(list);
  }
  box.hidden = false;
}
