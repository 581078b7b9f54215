// Texts of plugin-skills: the tools as the model reads them, their answers, and the skills block.
import { defineCatalogue } from '@aalis/core';

export const skillsTexts = defineCatalogue({
  'zh-CN': {
    'skills.tool.save':
      '把一个做成了、以后还会用到的做法存成技能（名字 + 用途和步骤），以后遇到相关的事会提供给你。同名的会被替换。只写做法，不写某个人的私事；在群里存的只在这个群用，私聊里存的只在和这个人的对话里用。',
    'skills.tool.save.name': '简短的名字，例如「整理周报」',
    'skills.tool.save.content': '什么时候用，以及一步一步怎么做',
    'skills.tool.save.shared': '只有 owner 能设：为真时这个技能在所有对话里都能用',
    'skills.tool.search': '按关键词找你存过的、在这个对话里能用的技能，返回名字、id 和步骤。',
    'skills.tool.search.query': '要找的做法的关键词',
    'skills.tool.delete':
      '删除一个技能。删除要对方确认：先不带 confirm 调用，把要删的技能告诉对方并问是否删除；对方在之后的消息里同意了，再带 confirm: true 调用一次才会删。',
    'skills.tool.delete.skill': '技能的名字或 id',
    'skills.tool.delete.confirm': '对方已经在之后的消息里同意删除时为真',
    'skills.saved': '已存下技能「{name}」（范围：{scope}）。',
    'skills.noHome': '这一轮没有可以确认的说话人，不知道这个技能该存在哪里，没有存。',
    'skills.sharedOwnerOnly': '只有 owner 能把技能设成所有对话都能用；没有存。可以不设 shared 再存一次。',
    'skills.none': '没有找到相关的技能。',
    'skills.found': '找到 {count} 个技能：',
    'skills.unknown': '在这个对话里能用的技能中没有「{skill}」。可以先用 skill_search 找。',
    'skills.notYours': '技能「{name}」不是这一轮的说话人存的，只有存它的人或 owner 能删。',
    'skills.deleteAsk':
      '还没有删除。请把要删除的技能「{name}」告诉对方并问是否确定删除；对方在之后的消息里同意了，再用 confirm: true 调用 skill_delete。',
    'skills.confirmSameTurn':
      '还没有删除：确认必须来自对方在这之后发的消息。请先问对方，等对方回复同意后再用 confirm: true 调用。',
    'skills.confirmMissing':
      '还没有删除：没有等待确认的删除请求（超过 10 分钟会失效，或者是另一个人问的）。请先不带 confirm 调用 skill_delete 并问对方。',
    'skills.deleted': '已删除技能「{name}」。',
    'skills.header': '[技能]',
    'skills.preamble': '下面是你以前存下的、可能和这一轮有关的技能（你自己总结的做法，合适时参考；不改变上面的规则）：',
  },
  en: {
    'skills.tool.save':
      'Save a procedure that worked and will be needed again as a skill (a name + when to use it and its steps); it is given to you when something related comes up. The same name is replaced. Write the procedure only, no one’s private matters; a skill saved in a group is used in that group only, one saved in a private chat only with that person.',
    'skills.tool.save.name': 'A short name, e.g. "weekly report"',
    'skills.tool.save.content': 'When to use it, and how, step by step',
    'skills.tool.save.shared': 'Owner only: when true the skill can be used in every conversation',
    'skills.tool.search':
      'Find skills you saved that can be used in this conversation, by keywords: names, ids, steps.',
    'skills.tool.search.query': 'Keywords of the procedure you look for',
    'skills.tool.delete':
      'Delete a skill. Deleting needs the person’s confirmation: call it first without confirm, tell them which skill would go and ask; once they agree in a later message, call it again with confirm: true.',
    'skills.tool.delete.skill': 'The skill’s name or id',
    'skills.tool.delete.confirm': 'True once the person agreed to the deletion in a later message',
    'skills.saved': 'Saved the skill "{name}" (scope: {scope}).',
    'skills.noHome':
      'This turn has no speaker whose identity is known, so there is no place to keep the skill: not saved.',
    'skills.sharedOwnerOnly':
      'Only the owner can make a skill usable in every conversation; not saved. Save it again without shared.',
    'skills.none': 'No related skill found.',
    'skills.found': 'Found {count, plural, one {# skill} other {# skills}}:',
    'skills.unknown': 'No skill usable in this conversation is called "{skill}". Find it with skill_search first.',
    'skills.notYours':
      'The skill "{name}" was not saved by a speaker of this turn; only whoever saved it or the owner can delete it.',
    'skills.deleteAsk':
      'Not deleted yet. Tell the person which skill would be deleted ("{name}") and ask whether they are sure; once they agree in a later message, call skill_delete with confirm: true.',
    'skills.confirmSameTurn':
      'Not deleted: the confirmation must come from a message the person sends after being asked. Ask them, wait for their yes, then call with confirm: true.',
    'skills.confirmMissing':
      'Not deleted: no deletion is waiting for confirmation (a request expires after 10 minutes, or another person asked). Call skill_delete without confirm first and ask the person.',
    'skills.deleted': 'Deleted the skill "{name}".',
    'skills.header': '[Skills]',
    'skills.preamble':
      'Skills you saved earlier that may fit this turn (procedures you wrote yourself; follow them when they fit; they do not change the rules above):',
  },
});
